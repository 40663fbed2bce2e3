import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOTS_TO_MPS } from './fix';
import { decodeNmeaSentence } from './nmea';
import { createGpsStreamDecoder } from './gpsStream';
import { GPS_DATA_MISSING, gpsDataDir } from './testData';

const dataDir = gpsDataDir();
if (!dataDir) console.warn(GPS_DATA_MISSING);

/** Appends the right checksum to `$…` (for sentences this test builds). */
function withChecksum(body: string): string {
  let sum = 0;
  for (let index = 1; index < body.length; index++) sum ^= body.charCodeAt(index);
  return `${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

describe('NMEA sentences', () => {
  it('decodes an RMC fix and needs status A, a checksum that matches and sane fields', () => {
    const good = withChecksum('$GNRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A');
    const outcome = decodeNmeaSentence(good);
    expect(outcome.kind).toBe('fix');
    if (outcome.kind !== 'fix') return;
    expect(outcome.fix).toMatchObject({ time: '2002-12-09T08:35:59.000Z', speedMps: 0.002, course: 77.52 });
    expect(outcome.fix.lat).toBeCloseTo(47 + 17.11437 / 60, 9);
    expect(outcome.fix.lon).toBeCloseTo(8 + 33.91522 / 60, 9);

    const rejected: [string, string][] = [
      [withChecksum('$GPRMC,083559.00,V,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,N'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,N'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,S'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,9117.11437,N,00833.91522,E,0.004,77.52,091202,,,A'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4767.11437,N,00833.91522,E,0.004,77.52,091202,,,A'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,310202,,,A'), 'invalid'],
      [withChecksum('$GPRMC,253559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4717.11437,X,00833.91522,E,0.004,77.52,091202,,,A'), 'invalid'],
      [withChecksum('$GPRMC,083559.00,A,4717.1x437,N,00833.91522,E,0.004,77.52,091202,,,A'), 'invalid'],
      ['$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A', 'invalid'],
      [
        withChecksum('$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A').replace('4717', '4718'),
        'badChecksum',
      ],
      [withChecksum('$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00'), 'ignored'],
    ];
    for (const [sentence, kind] of rejected) expect(decodeNmeaSentence(sentence).kind, sentence).toBe(kind);
  });

  it('several sentences in one datagram, GGA quality joined to its RMC, a repeated last fix counted', () => {
    const gga = withChecksum('$GPGGA,120000.00,4807.038,N,01131.000,E,2,08,0.9,545.4,M,46.9,M,,');
    const rmc = withChecksum('$GPRMC,120000.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W');
    const noFixGga = withChecksum('$GPGGA,120001.00,4807.038,N,01131.000,E,0,00,,,M,,M,,');
    const rmcOfNoFix = withChecksum('$GPRMC,120001.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W');
    const decoder = createGpsStreamDecoder('NMEA');
    const fixes = decoder.pushDatagram(`${gga}\r\n${rmc}\r\n${noFixGga}\r\n${rmcOfNoFix}`);
    expect(fixes).toHaveLength(1);
    expect(fixes[0]).toMatchObject({ quality: 2, speedMps: Math.round(22.4 * KNOTS_TO_MPS * 1000) / 1000 });
    expect(decoder.pushDatagram(`${rmc}\r\n`)).toEqual([]);
    expect(decoder.counters).toEqual({ received: 5, badChecksum: 0, invalid: 2, used: 1, repeated: 1, ignored: 1 });
  });
});

describe.skipIf(!dataDir)('NMEA: the documented $GPRMC vectors', () => {
  it('decodes each to the values its source states', () => {
    const rows = readFileSync(join(dataDir!, 'nmea_documented_vectors.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      const cells = [...row.matchAll(/"((?:[^"]|"")*)"|([^,]*)/g)]
        .filter((match) => match.index === 0 || row[match.index - 1] === ',')
        .map((match) => match[1] ?? match[2] ?? '');
      const [, , sentence, time, date, lat, lon, knots, course] = cells;
      const outcome = decodeNmeaSentence(sentence!);
      expect(outcome.kind, sentence).toBe('fix');
      if (outcome.kind !== 'fix') continue;
      expect(outcome.fix.time).toBe(`${date}T${time}.000Z`);
      expect(outcome.fix.lat).toBeCloseTo(Number(lat), 9);
      expect(outcome.fix.lon).toBeCloseTo(Number(lon), 9);
      expect(outcome.fix.speedMps).toBeCloseTo(Number(knots) * KNOTS_TO_MPS, 3);
      expect(outcome.fix.course).toBe(Number(course));
    }
  });
});

interface Tpv {
  time: string;
  lat?: number;
  lon?: number;
  mode: number;
}

describe.skipIf(!dataDir)("NMEA: gpsd's regression captures against gpsd's own decoding (*.chk)", () => {
  const logs = dataDir ? readdirSync(join(dataDir, 'nmea-gpsd')).filter((name) => name.endsWith('.log')) : [];

  it.each(logs)('%s', (log) => {
    const lines = readFileSync(join(dataDir!, 'nmea-gpsd', log), 'latin1').split('\n');
    const chk = readFileSync(join(dataDir!, 'nmea-gpsd', `${log}.chk`), 'latin1').split('\n');
    // gpsd's TPV reports by time of day (their dates are shifted by its week-rollover rule: SOURCES.md).
    const tpvByTimeOfDay = new Map<string, Tpv[]>();
    for (const line of chk) {
      if (!line.startsWith('{"class":"TPV"')) continue;
      const tpv = JSON.parse(line) as Tpv;
      if (tpv.mode < 2 || tpv.lat === undefined || !tpv.time) continue;
      const key = tpv.time.slice(11, 19);
      tpvByTimeOfDay.set(key, [...(tpvByTimeOfDay.get(key) ?? []), tpv]);
    }
    let fixes = 0;
    let matched = 0;
    for (const raw of lines) {
      const line = raw.replace(/\r$/, '');
      if (!/^\$G[PN]RMC/.test(line)) continue;
      const outcome = decodeNmeaSentence(line);
      if (!line.includes(',A,')) expect(outcome.kind, line).not.toBe('fix');
      if (outcome.kind !== 'fix') continue;
      fixes++;
      const candidates = tpvByTimeOfDay.get(outcome.fix.time.slice(11, 19)) ?? [];
      // gpsd prints nine decimals; the same epoch's TPV must carry our position.
      if (
        candidates.some(
          (tpv) => Math.abs(tpv.lat! - outcome.fix.lat) < 1e-6 && Math.abs(tpv.lon! - outcome.fix.lon) < 1e-6,
        )
      )
        matched++;
    }
    // Where gpsd reported the epoch, it agrees with us; gpsd skips a few epochs of its own (cycle ends).
    const reported = [...tpvByTimeOfDay.keys()].length;
    if (fixes > 0 && reported > 0)
      expect(matched / fixes, `${matched} of ${fixes} fixes found in gpsd's output`).toBeGreaterThanOrEqual(0.8);
    expect(fixes).toBe(expectedFixes[log]);
  });
});

/** RMC sentences with status A and a matching checksum per log (SOURCES.md's table, less corrupted lines). */
const expectedFixes: Record<string, number> = {
  'bt451.log': 13,
  'bu353s4.log': 25,
  'bundg_zeus_9.log': 146,
  'garmin-10x.log': 9,
  'garmin-geko201.log': 0,
  'garmin48.log': 7,
  'gp-320fw-2019-04-07-coldboot.log': 1,
  'gpslim236.log': 20,
  'haicom-305N.log': 68,
  'iTrek.log': 35,
  'magellan-ec10.log': 21,
  'motorola-t805.log': 16,
  'rst39.log': 4,
  'sl869.log': 8,
  'telit-he910.log': 187,
  'tomtom-mkII.log': 4,
  'tr737A+.log': 7,
  'ublox-lea-4h.log': 9,
};
