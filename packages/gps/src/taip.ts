/**
 * Trimble TAIP reports, one `>…<` message at a time: `>RPV` (position/velocity), `>RCP` (compact position)
 * and `>RLN` (long navigation), with the optional `;ID=` vehicle id and `;*FF` checksum (field layouts:
 * Trimble's TAIP reference P-400, pp. 11, 16, 18). Other messages (`>RAL`, vendor extensions) are ignored.
 *
 * The checksum is optional in TAIP, but a message without one is not used: nothing else would tell a
 * flipped digit from a real position. `readTaipReport` still decodes such a message, for diagnostics.
 */
import {
  isPrintableAscii,
  MPH_TO_MPS,
  parseHexPair,
  roundSpeed,
  xorChecksum,
  type FixSentence,
  type GpsFix,
  type SentenceOutcome,
} from './fix';

/**
 * TAIP gives GPS time of day, which runs ahead of UTC by the leap seconds since 1980: 18 s since
 * 2017-01-01, and no leap second has been scheduled since (IERS Bulletin C).
 */
export const GPS_UTC_OFFSET_SECONDS = 18;

const PV = /^(\d{5})([+-]\d{7})([+-]\d{8})(\d{3})(\d{3})(\d)(\d)$/;
const CP = /^(\d{5})([+-]\d{6})([+-]\d{7})(\d)(\d)$/;
const LN_HEAD = /^(\d{8})([+-]\d{9})([+-]\d{10})([+-]\d{8})(\d{4})([+-]\d{4})(\d{4})(\d{2})/;
/** TAIP source codes of a real solution: 2D/3D GPS, 2D/3D DGPS, dead reckoning, degraded DR. 9 = no fix. */
const USABLE_SOURCES = new Set([0, 1, 2, 3, 6, 8]);

export type TaipChecksum = 'ok' | 'bad' | 'absent';

export interface TaipReport {
  checksum: TaipChecksum;
  outcome: SentenceOutcome;
}

/** Decodes one message as the stream uses it: a position only with a checksum that matches. Never throws. */
export function decodeTaipMessage(message: string, receivedAt: Date): SentenceOutcome {
  const report = readTaipReport(message, receivedAt);
  // Vendor extensions (>RGP, >REV, …) are not ours to check: some compute their checksum differently.
  if (report.outcome.kind === 'ignored') return report.outcome;
  if (report.checksum === 'bad') return { kind: 'badChecksum', reason: 'checksum does not match' };
  if (report.checksum === 'absent' && report.outcome.kind === 'fix') return { kind: 'invalid', reason: 'no checksum' };
  return report.outcome;
}

/**
 * Reads `>ABB{data}[;ID=…][;*FF]<` whatever its checksum says, and says what the checksum was. The date
 * of the GPS time of day is the one that puts the fix nearest to `receivedAt` (TAIP carries no date).
 */
export function readTaipReport(message: string, receivedAt: Date): TaipReport {
  if (message.length > 512 || !isPrintableAscii(message) || message[0] !== '>' || !message.endsWith('<'))
    return { checksum: 'absent', outcome: { kind: 'invalid', reason: 'not a >…< message' } };
  const body = message.slice(1, -1);
  const parts = body.split(';');
  let checksum: TaipChecksum = 'absent';
  const last = parts[parts.length - 1] ?? '';
  if (last.startsWith('*')) {
    const stated = parseHexPair(last.slice(1));
    // XOR of every character from '>' up to and including '*' (TAIP reference p. 3).
    const starAt = message.length - 1 - last.length + 1;
    checksum = stated !== null && xorChecksum(message, 0, starAt) === stated ? 'ok' : 'bad';
    parts.pop();
  }
  const head = parts[0] ?? '';
  const vehicleId = parts
    .slice(1)
    .find((part) => part.startsWith('ID='))
    ?.slice(3);
  const id = head.slice(0, 3);
  const data = head.slice(3);
  const outcome =
    id === 'RPV'
      ? decodePv(data, receivedAt)
      : id === 'RCP'
        ? decodeCp(data, receivedAt)
        : id === 'RLN'
          ? decodeLn(data, receivedAt)
          : ({ kind: 'ignored', reason: `>${id} carries no position we use` } as const);
  if (outcome.kind === 'fix' && vehicleId) outcome.fix.vehicleId = vehicleId;
  return { checksum, outcome };
}

function decodePv(data: string, receivedAt: Date): SentenceOutcome {
  const m = PV.exec(data);
  if (!m) return { kind: 'invalid', reason: 'PV is not 30 characters of digits and signs' };
  const heading = Number(m[5]);
  if (heading > 360) return { kind: 'invalid', reason: 'heading over 360' };
  return fixFrom('RPV', {
    secondsOfDay: Number(m[1]),
    lat: Number(m[2]) / 1e5,
    lon: Number(m[3]) / 1e5,
    speedMps: roundSpeed(Number(m[4]) * MPH_TO_MPS),
    course: heading,
    source: Number(m[6]),
    age: Number(m[7]),
    receivedAt,
  });
}

function decodeCp(data: string, receivedAt: Date): SentenceOutcome {
  const m = CP.exec(data);
  if (!m) return { kind: 'invalid', reason: 'CP is not 22 characters of digits and signs' };
  return fixFrom('RCP', {
    secondsOfDay: Number(m[1]),
    lat: Number(m[2]) / 1e4,
    lon: Number(m[3]) / 1e4,
    speedMps: null,
    course: null,
    source: Number(m[4]),
    age: Number(m[5]),
    receivedAt,
  });
}

function decodeLn(data: string, receivedAt: Date): SentenceOutcome {
  const m = LN_HEAD.exec(data);
  if (!m) return { kind: 'invalid', reason: 'LN head is malformed' };
  const satellites = Number(m[8]);
  // 53 characters of head, 4 per satellite, 10 reserved, then source and age (65 + 4n in all).
  if (data.length !== 65 + 4 * satellites || !/^\d\d$/.test(data.slice(-2)))
    return { kind: 'invalid', reason: 'LN length does not match its satellite count' };
  const heading = Number(m[7]) / 10;
  if (heading > 360) return { kind: 'invalid', reason: 'heading over 360' };
  return fixFrom('RLN', {
    secondsOfDay: Number(m[1]) / 1000,
    lat: Number(m[2]) / 1e7,
    lon: Number(m[3]) / 1e7,
    speedMps: roundSpeed((Number(m[5]) / 10) * MPH_TO_MPS),
    course: heading,
    source: Number(data[data.length - 2]),
    age: Number(data[data.length - 1]),
    receivedAt,
  });
}

interface TaipFields {
  secondsOfDay: number;
  lat: number;
  lon: number;
  speedMps: number | null;
  course: number | null;
  source: number;
  age: number;
  receivedAt: Date;
}

function fixFrom(sentence: FixSentence, fields: TaipFields): SentenceOutcome {
  if (fields.age === 0) return { kind: 'invalid', reason: 'age of data 0 (not available)' };
  if (fields.age > 2) return { kind: 'invalid', reason: `unknown age of data ${fields.age}` };
  if (!USABLE_SOURCES.has(fields.source)) return { kind: 'invalid', reason: `source ${fields.source} is no fix` };
  if (fields.secondsOfDay >= 86_400) return { kind: 'invalid', reason: 'time of day past midnight' };
  if (Math.abs(fields.lat) > 90 || Math.abs(fields.lon) > 180)
    return { kind: 'invalid', reason: 'position out of range' };
  const fix: GpsFix = {
    time: utcFromGpsTimeOfDay(fields.secondsOfDay, fields.receivedAt),
    lat: fields.lat,
    lon: fields.lon,
    speedMps: fields.speedMps,
    course: fields.course,
    valid: true,
    format: 'TAIP',
    sentence,
    quality: fields.source,
  };
  return { kind: 'fix', fix };
}

const DAY_MS = 86_400_000;

/** GPS seconds of day → the UTC instant on the day (yesterday, today, tomorrow) nearest to `receivedAt`. */
export function utcFromGpsTimeOfDay(secondsOfDay: number, receivedAt: Date): string {
  const midnight = Math.floor(receivedAt.getTime() / DAY_MS) * DAY_MS;
  const offsetMs = Math.round((secondsOfDay - GPS_UTC_OFFSET_SECONDS) * 1000);
  let best = midnight + offsetMs;
  for (const candidate of [best - DAY_MS, best + DAY_MS]) {
    if (Math.abs(candidate - receivedAt.getTime()) < Math.abs(best - receivedAt.getTime())) best = candidate;
  }
  return new Date(best).toISOString();
}
