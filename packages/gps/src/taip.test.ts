import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MPH_TO_MPS } from './fix';
import { createGpsStreamDecoder } from './gpsStream';
import { decodeTaipMessage, readTaipReport, utcFromGpsTimeOfDay } from './taip';
import { GPS_DATA_MISSING, gpsDataDir } from './testData';

const dataDir = gpsDataDir();
if (!dataDir) console.warn(GPS_DATA_MISSING);

const received = new Date('2026-11-25T10:00:00Z');

describe('TAIP messages', () => {
  it("decodes Trimble's worked PV example (TAIP reference p. 4) to its stated values", () => {
    const outcome = decodeTaipMessage('>RPV15714+3739438-1220384601512612;ID=1234;*7F<', received);
    expect(outcome).toEqual({
      kind: 'fix',
      fix: {
        time: utcFromGpsTimeOfDay(15714, received),
        lat: 37.39438,
        lon: -122.03846,
        speedMps: Math.round(15 * MPH_TO_MPS * 1000) / 1000,
        course: 126,
        valid: true,
        format: 'TAIP',
        sentence: 'RPV',
        quality: 1,
        vehicleId: '1234',
      },
    });
    // 15714 s of GPS time is 04:21:54 GPS, 04:21:36 UTC.
    expect(utcFromGpsTimeOfDay(15714, received)).toBe('2026-11-25T04:21:36.000Z');
  });

  it('decodes the other documented examples (TAIP-FORMAT.md §6); without a checksum they are read, never used', () => {
    const examples: [string, number, number, number, number][] = [
      ['>RPV69311+2578378-0802936300125532<', 25.78378, -80.29363, 1, 255],
      ['>RPV81854+4902565+1220996700000012<', 49.02565, 122.09967, 0, 0],
      ['>RPV06624-3189567+1160078800027302;ID=AAFKF;*39<', -31.89567, 116.00788, 0, 273],
    ];
    for (const [message, lat, lon, mph, heading] of examples) {
      const report = readTaipReport(message, received);
      expect(report.outcome.kind, message).toBe('fix');
      if (report.outcome.kind !== 'fix') continue;
      expect(report.outcome.fix).toMatchObject({ lat, lon, course: heading });
      expect(report.outcome.fix.speedMps).toBeCloseTo(mph * MPH_TO_MPS, 3);
      expect(decodeTaipMessage(message, received).kind).toBe(report.checksum === 'ok' ? 'fix' : 'invalid');
    }
    expect(readTaipReport(examples[2]![0], received).checksum).toBe('ok');
    expect(readTaipReport(examples[2]![0], received).outcome).toMatchObject({ fix: { vehicleId: 'AAFKF' } });
  });

  it('refuses a wrong checksum, age 0 (no data), source 9 (no fix) and malformed fields', () => {
    expect(decodeTaipMessage('>RPV15714+3739438-1220384601512612;ID=1234;*7E<', received).kind).toBe('badChecksum');
    for (const data of [
      'RPV15714+3739438-1220384601512610',
      'RPV15714+3739438-1220384601512692',
      'RPV15714+3739438-122038460151261',
      'RPV95714+3739438-1220384601512612',
      'RPV15714+9739438-1220384601512612',
    ])
      expect(decodeTaipMessage(withChecksum(data), received).kind, data).toBe('invalid');
    expect(decodeTaipMessage(withChecksum('RAL03874+00185+00012;ID=0017'), received).kind).toBe('ignored');
  });

  it('places the GPS time of day on the day nearest to the receive time (midnight rollover)', () => {
    expect(utcFromGpsTimeOfDay(86_399, new Date('2026-11-25T00:00:30Z'))).toBe('2026-11-24T23:59:41.000Z');
    expect(utcFromGpsTimeOfDay(20, new Date('2026-11-24T23:59:59Z'))).toBe('2026-11-25T00:00:02.000Z');
  });
});

describe.skipIf(!dataDir)('TAIP: the captured streams and device messages', () => {
  it('decodes TAIP0xF0/F1/F2 (RPV, RCP, RLN) near 40.2728 N, 78.8471 W with every checksum valid', () => {
    const counts = { 'TAIP0xF0.dat': 51, 'TAIP0xF1.dat': 51, 'TAIP0xF2.dat': 11 };
    for (const [file, count] of Object.entries(counts)) {
      const decoder = createGpsStreamDecoder('TAIP');
      const fixes = decoder.pushStream(readFileSync(join(dataDir!, 'taip', file)), received);
      expect(fixes, file).toHaveLength(count);
      expect(decoder.counters).toMatchObject({ received: count, used: count, badChecksum: 0, invalid: 0 });
      for (const fix of fixes) {
        expect(fix.lat).toBeCloseTo(40.2728, 3);
        expect(fix.lon).toBeCloseTo(-78.8471, 3);
      }
    }
    const first = createGpsStreamDecoder('TAIP').pushStream(
      readFileSync(join(dataDir!, 'taip', 'TAIP0xF2.dat')),
      new Date('2013-07-17T12:00:00Z'),
    )[0];
    // TAIP-FORMAT.md §4: 44461.000 s (12:21:01 GPS), 40.2728785, −78.8471871, heading 0.0, 3D GPS.
    expect(first).toMatchObject({
      time: '2013-07-17T12:20:43.000Z',
      lat: 40.2728785,
      lon: -78.8471871,
      course: 0,
      quality: 1,
    });
  });

  it("reads Traccar's real device messages: positions from RPV/RCP/RLN with a checksum, nothing else", () => {
    const lines = readFileSync(join(dataDir!, 'taip', 'traccar-TaipProtocolDecoderTest-messages.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('>') || line.startsWith('\\r'));
    expect(lines.length).toBeGreaterThan(20);
    const outcomes = lines.map((line) => {
      const message = line.split('\t')[0]!.replaceAll('\\r\\n', '').trim();
      return { message, outcome: decodeTaipMessage(message, received) };
    });
    const fixes = outcomes.flatMap(({ outcome }) => (outcome.kind === 'fix' ? [outcome.fix] : []));
    // Every checked RPV, RCP and RLN gives a position; the RPV without its '<' and every other kind none.
    expect(fixes.map((fix) => fix.sentence).sort()).toEqual(['RCP', 'RCP', 'RLN', 'RLN', 'RPV', 'RPV', 'RPV', 'RPV']);
    for (const { message, outcome } of outcomes) {
      if (outcome.kind === 'fix') continue;
      expect(outcome.kind, message).toBe(message.endsWith('<') ? 'ignored' : 'invalid');
    }
    const rln = fixes.find((fix) => fix.sentence === 'RLN' && fix.vehicleId === '3580');
    expect(rln).toMatchObject({ lat: 29.7185103, lon: -95.575599 });
  });
});

function withChecksum(body: string): string {
  const text = `>${body};*`;
  let sum = 0;
  for (let index = 0; index < text.length; index++) sum ^= text.charCodeAt(index);
  return `${text}${sum.toString(16).toUpperCase().padStart(2, '0')}<`;
}
