import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGpsStreamDecoder, type GpsStreamDecoder } from './gpsStream';
import type { GpsFix, GpsFormat } from './fix';
import { GPS_DATA_MISSING, gpsDataDir } from './testData';

const dataDir = gpsDataDir();
if (!dataDir) console.warn(GPS_DATA_MISSING);
const received = new Date('2013-07-17T12:00:00Z');

const nmeaSentence = '$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A';
const taipMessage = '>RPV15714+3739438-1220384601512612;ID=1234;*7F<';

/** Feeds `bytes` in the pieces that `cuts` (sorted byte offsets) make, as TCP or a serial port may. */
function feedChopped(decoder: GpsStreamDecoder, bytes: Buffer, cuts: number[]): GpsFix[] {
  const fixes: GpsFix[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    fixes.push(...decoder.pushStream(bytes.subarray(start, cut), received));
    start = cut;
  }
  decoder.endStream();
  return fixes;
}

function chops(length: number) {
  return fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 40 })
    .map((cuts) => cuts.sort((a, b) => a - b));
}

describe('GPS stream decoding', () => {
  it('gives the same fixes and counters whatever byte boundaries the stream is cut at', () => {
    const taip = Buffer.from(`${taipMessage}\r\n>RPV15715+3739438-1220384601512612;ID=1234;*7E<>RAL1<`);
    const whole = createGpsStreamDecoder('TAIP');
    const expected = whole.pushStream(taip, received);
    fc.assert(
      fc.property(chops(taip.length), (cuts) => {
        const decoder = createGpsStreamDecoder('TAIP');
        expect(feedChopped(decoder, taip, cuts)).toEqual(expected);
        expect(decoder.counters).toEqual(whole.counters);
      }),
    );
  });

  it('bounds what it waits for: a stream that never ends a sentence is dropped and counted', () => {
    const decoder = createGpsStreamDecoder('NMEA');
    for (let index = 0; index < 20; index++) decoder.pushStream('$GPRMC,' + '1'.repeat(100));
    expect(decoder.counters.invalid).toBeGreaterThan(0);
    expect(decoder.pushStream(`\n${nmeaSentence}\r\n`)).toHaveLength(1);
  });
});

describe('GPS decoders under fuzzing (fast-check)', () => {
  const formats: [GpsFormat, string][] = [
    ['NMEA', `${nmeaSentence}\r\n`],
    ['TAIP', taipMessage],
  ];

  it.each(formats)('%s: arbitrary bytes never throw', (format) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, asDatagram) => {
        const decoder = createGpsStreamDecoder(format);
        if (asDatagram) decoder.pushDatagram(bytes, received);
        else decoder.pushStream(bytes, received);
        decoder.endStream();
      }),
      { numRuns: 2000 },
    );
  });

  it.each(formats)('%s: a valid report with one byte changed, dropped or inserted gives no fix', (format, valid) => {
    const bytes = Buffer.from(valid);
    const corruption = fc.oneof(
      fc.record({
        kind: fc.constant('change' as const),
        at: fc.nat(bytes.length - 1),
        value: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat(bytes.length - 1), value: fc.constant(0) }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(bytes.length - 1),
        value: fc.integer({ min: 0, max: 255 }),
      }),
    );
    fc.assert(
      fc.property(corruption, ({ kind, at, value }) => {
        const corrupted = Buffer.from(bytes);
        let input: Buffer;
        if (kind === 'change') {
          // A change to the same byte, to line-ending whitespace the framing drops, or of a checksum hex
          // digit's case (`*6A` = `*6a`: the decoder reads hex either way) is no corruption.
          // NMEA ends `*hh\r\n`, TAIP `*hh<`.
          const checksumDigit =
            format === 'NMEA'
              ? at >= bytes.length - 4 && at < bytes.length - 2
              : at >= bytes.length - 3 && at < bytes.length - 1;
          const sameHex = checksumDigit && String.fromCharCode(value).toUpperCase() === valid[at];
          fc.pre(corrupted[at] !== value && !sameHex && !(format === 'NMEA' && at >= bytes.length - 2));
          corrupted[at] = value;
          input = corrupted;
        } else if (kind === 'drop') {
          fc.pre(!(format === 'NMEA' && at >= bytes.length - 2));
          input = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
        } else {
          fc.pre(at > 0 && at < bytes.length - (format === 'NMEA' ? 2 : 0));
          // A second start byte right after the first (`>>RPV…`, `$$GP…`) is noise before a whole report,
          // which the decoder rightly reads after resynchronising; likewise TAIP's end byte put just before
          // its own (`…*7F<<`, found by fast-check seed 163808653) ends the whole report, the last `<` after it.
          fc.pre(!(at === 1 && value === bytes[0]));
          fc.pre(!(format === 'TAIP' && at === bytes.length - 1 && value === bytes[bytes.length - 1]));
          input = Buffer.concat([bytes.subarray(0, at), Buffer.from([value]), bytes.subarray(at)]);
        }
        const decoder = createGpsStreamDecoder(format);
        expect(decoder.pushDatagram(input, received)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe.skipIf(!dataDir)('GPS stream decoding: the real captures as datagrams and as a chopped stream', () => {
  const captures: [string, GpsFormat][] = dataDir
    ? [
        ...readdirSync(join(dataDir, 'nmea-gpsd'))
          .filter((name) => name.endsWith('.log'))
          .map((name): [string, GpsFormat] => [`nmea-gpsd/${name}`, 'NMEA']),
        ['taip/TAIP0xF0.dat', 'TAIP'],
        ['taip/TAIP0xF1.dat', 'TAIP'],
        ['taip/TAIP0xF2.dat', 'TAIP'],
      ]
    : [];

  it.each(captures)('%s', (file, format) => {
    const bytes = readFileSync(join(dataDir!, file));
    const reference = createGpsStreamDecoder(format);
    const expected = reference.pushStream(bytes, received);
    reference.endStream();
    // One datagram per line (NMEA) or per message (TAIP), as a modem sends them over UDP.
    const units = format === 'NMEA' ? bytes.toString('latin1').split('\n') : bytes.toString('latin1').split(/(?<=<)/);
    const datagrams = createGpsStreamDecoder(format);
    expect(units.flatMap((unit) => datagrams.pushDatagram(unit, received))).toEqual(expected);
    fc.assert(
      fc.property(chops(bytes.length), (cuts) => {
        expect(feedChopped(createGpsStreamDecoder(format), bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 20 },
    );
  });
});
