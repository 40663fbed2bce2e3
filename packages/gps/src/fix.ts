/**
 * What a decoder gives back for one sentence or message. A position comes out only as a `GpsFix`, and
 * only from input whose checksum was present and right and whose fields all make sense: an ambulance's
 * position on the hospital's board must never come from a corrupted or "no fix" report.
 */

export type GpsFormat = 'NMEA' | 'TAIP';

/** The sentence or message a fix came from: NMEA `$--RMC`, TAIP `>RPV`, `>RCP`, `>RLN`. */
export type FixSentence = 'RMC' | 'RPV' | 'RCP' | 'RLN';

export interface GpsFix {
  /** When the receiver took the fix (UTC, ISO 8601). */
  time: string;
  lat: number;
  lon: number;
  /** Ground speed in m/s; null when the report has none (TAIP `>RCP`, an empty NMEA field). */
  speedMps: number | null;
  /** Course over ground, degrees true; null when the report has none. */
  course: number | null;
  valid: true;
  format: GpsFormat;
  sentence: FixSentence;
  /** TAIP's `;ID=` vehicle id, when the modem sends one. */
  vehicleId?: string;
  /** NMEA `$--GGA` fix quality (1 GPS, 2 DGPS, …) of the same epoch, or TAIP's source code; when known. */
  quality?: number;
}

/** Why a sentence gave no fix. `badChecksum` and `invalid` are the installer's error counters. */
export type SentenceOutcome =
  | { kind: 'fix'; fix: GpsFix }
  /** A GGA with a usable fix quality: it carries no fix of its own but qualifies the epoch's RMC. */
  | { kind: 'quality'; time: string; quality: number }
  | { kind: 'badChecksum'; reason: string }
  | { kind: 'invalid'; reason: string }
  /** A well-formed sentence of a kind we do not position from ($GPGSV, >RAL, …). */
  | { kind: 'ignored'; reason: string };

export const KNOTS_TO_MPS = 1852 / 3600;
export const MPH_TO_MPS = 0.44704;

/** Speeds are reported to the millimetre per second: finer digits are noise from the unit conversion. */
export function roundSpeed(metresPerSecond: number): number {
  return Math.round(metresPerSecond * 1000) / 1000;
}

/** Characters a sentence may contain (printable ASCII); anything else is line noise. */
export function isPrintableAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** XOR of the character codes of `text[from..to)`, the checksum both NMEA and TAIP use. */
export function xorChecksum(text: string, from: number, to: number): number {
  let sum = 0;
  for (let index = from; index < to; index++) sum ^= text.charCodeAt(index);
  return sum;
}

const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;

export function parseHexPair(text: string): number | null {
  return HEX_PAIR.test(text) ? parseInt(text, 16) : null;
}
