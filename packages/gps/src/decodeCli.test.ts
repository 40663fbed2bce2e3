/**
 * `npm run gps:decode` (issue 14, item 4) as support staff run it: the CLI in its own process on a
 * capture file. One JSON line per valid fix with exactly the documented keys in order, nothing for
 * invalid input, the counters on stderr, exit 2 with the usage for a wrong call.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = path.join(import.meta.dirname, 'decodeCli.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'gps-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function decode(args: string[], content?: string) {
  const file = path.join(dir, `capture-${Math.random().toString(36).slice(2)}.dat`);
  if (content !== undefined) writeFileSync(file, content, 'latin1');
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args, file], {
    encoding: 'utf8',
    // The CLI reads the path relative to INIT_CWD (npm's caller); the file's path is absolute here.
    env: { ...process.env, INIT_CWD: dir },
  });
  return {
    status: result.status,
    lines: result.stdout.split('\n').filter(Boolean),
    stderr: result.stderr,
  };
}

const KEYS = ['time', 'lat', 'lon', 'speedMps', 'course', 'valid'];

// Each call starts Node with tsx: seconds on a busy machine.
describe('npm run gps:decode', { timeout: 60_000 }, () => {
  it('NMEA: the documented $GPRMC vector gives one line; status V, a bad checksum and noise give none', () => {
    const capture = [
      '$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A', // the textbook vector
      '$GPRMC,123520,V,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*7D', // void: no fix
      '$GPRMC,123521,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*00', // checksum does not match
      'not a sentence',
    ].join('\r\n');
    const { status, lines, stderr } = decode(['--format', 'nmea'], `${capture}\r\n`);
    expect(status).toBe(0);
    expect(lines).toHaveLength(1);
    const fix = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(fix)).toEqual(KEYS);
    expect(fix.time).toBe('1994-03-23T12:35:19.000Z');
    expect(fix.lat).toBeCloseTo(48 + 7.038 / 60, 6);
    expect(fix.lon).toBeCloseTo(11 + 31 / 60, 6);
    expect(fix.speedMps).toBeCloseTo(22.4 * (1852 / 3600), 2);
    expect(fix.course).toBe(84.4);
    expect(fix.valid).toBe(true);
    expect(stderr).toMatch(/"used":1/);
  });

  it("TAIP: an RPV on the capture's --date, its GPS time of day turned into UTC", () => {
    // 34225 s of GPS time of day = 09:30:25 GPS = 09:30:07 UTC (18 leap seconds); 25 mph = 11.176 m/s.
    const { status, lines } = decode(
      ['--format', 'taip', '--date', '2026-11-27'],
      '>RPV34225+4236010-0710589002512012;ID=AMB7;*0A<',
    );
    expect(status).toBe(0);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { time: '2026-11-27T09:30:07.000Z', lat: 42.3601, lon: -71.0589, speedMps: 11.176, course: 120, valid: true },
    ]);
  });

  it('prints nothing for a capture with no valid report', () => {
    const { status, lines } = decode(
      ['--format', 'taip', '--date', '2026-11-27'],
      '>RPV34225+4236010-0710589002512012;ID=AMB7;*0B<\r\nxyz',
    );
    expect(status).toBe(0);
    expect(lines).toEqual([]);
  });

  it('answers a wrong call with the usage and exit 2, an unreadable file with exit 1', () => {
    const wrongFormat = decode(['--format', 'xml'], '');
    expect(wrongFormat.status).toBe(2);
    expect(wrongFormat.stderr).toContain('usage: npm run gps:decode -- --format nmea|taip');
    expect(decode(['--format', 'nmea', '--date', 'yesterday'], '').status).toBe(2);
    const missing = decode(['--format', 'nmea']);
    expect(missing.status).toBe(1);
    expect(missing.lines).toEqual([]);
  });
});
