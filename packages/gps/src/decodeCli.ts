/**
 * `npm run gps:decode -- --format nmea|taip [--date YYYY-MM-DD] <file>`: the diagnostic support staff
 * run on a capture from a modem. One JSON line per valid fix on stdout, nothing for invalid input; the
 * counters on stderr. TAIP carries no date: `--date` gives the capture's (default: today, UTC).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGpsStreamDecoder } from './gpsStream';
import { fixLine } from './fixLine';

const usage = 'usage: npm run gps:decode -- --format nmea|taip [--date YYYY-MM-DD] <file>';

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({
      options: { format: { type: 'string' }, date: { type: 'string' } },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const format = values.format?.toUpperCase();
  const file = positionals[0];
  if ((format !== 'NMEA' && format !== 'TAIP') || !file || positionals.length > 1) {
    console.error(usage);
    return 2;
  }
  // Noon of the capture's day: the nearest-day rule then places every TAIP time of day on that day.
  const receivedAt = values.date ? new Date(`${values.date}T12:00:00Z`) : new Date();
  if (Number.isNaN(receivedAt.getTime())) {
    console.error(`--date must be YYYY-MM-DD\n${usage}`);
    return 2;
  }
  let bytes: Buffer;
  try {
    // npm runs the script from the repository root; the path is the caller's.
    bytes = readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), file));
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return 1;
  }
  const decoder = createGpsStreamDecoder(format);
  const fixes = decoder.pushStream(bytes, receivedAt);
  decoder.endStream();
  process.stdout.write(fixes.map((fix) => `${fixLine(fix)}\n`).join(''));
  console.error(`gps:decode ${JSON.stringify(decoder.counters)}`);
  return 0;
}

process.exitCode = main();
