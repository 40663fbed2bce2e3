/**
 * Turns what a modem sends — UDP datagrams, or a TCP / serial byte stream cut anywhere — into fixes, with
 * the installer's counters. A datagram is complete in itself and may hold several sentences; a stream
 * keeps an unfinished sentence until the next read brings its end.
 *
 * A fix whose time is not newer than the last one used (a modem repeating its last fix after losing the
 * sky, or a store-and-forward backlog) is counted `repeated` and not given out: the fix's age must say
 * how old the position really is.
 */
import type { GpsFix, GpsFormat, SentenceOutcome } from './fix';
import { decodeNmeaSentence } from './nmea';
import { decodeTaipMessage } from './taip';

export interface GpsCounters {
  /** Sentences or messages seen. */
  received: number;
  badChecksum: number;
  /** Malformed, unchecked, or reporting no fix (status V, quality 0, age 0, …). */
  invalid: number;
  /** Gave the fix handed on. */
  used: number;
  /** A valid fix, but not newer than the last one used. */
  repeated: number;
  /** Well-formed, of a kind that carries no position ($GPGSV, >RAL, …). */
  ignored: number;
}

export type SentenceResult = 'used' | 'badChecksum' | 'invalid' | 'repeated' | 'ignored' | 'quality';

export interface DecodedSentence {
  text: string;
  result: SentenceResult;
  reason?: string;
}

export interface GpsStreamDecoder {
  readonly format: GpsFormat;
  /** One datagram: every sentence in it, including a last one without a line ending. */
  pushDatagram(bytes: Uint8Array | string, receivedAt?: Date): GpsFix[];
  /** One read of a stream: complete sentences now, the unfinished rest with the next read. */
  pushStream(bytes: Uint8Array | string, receivedAt?: Date): GpsFix[];
  /** The stream closed: what was left unfinished is counted invalid. */
  endStream(): void;
  readonly counters: Readonly<GpsCounters>;
}

export interface GpsStreamOptions {
  /** Called for every sentence, for the installer's live view. */
  onSentence?: (sentence: DecodedSentence) => void;
}

/** The longest sentence we wait for in a stream: NMEA's limit is 82 bytes, TAIP's LN with 12 SVs is ~130. */
const MAX_PENDING = 512;

export function createGpsStreamDecoder(format: GpsFormat, options: GpsStreamOptions = {}): GpsStreamDecoder {
  const counters: GpsCounters = { received: 0, badChecksum: 0, invalid: 0, used: 0, repeated: 0, ignored: 0 };
  let pending = '';
  let lastFixTime = -Infinity;
  // NMEA: the epoch (hhmmss.ss) and quality of the last GGA, which qualifies the RMC of the same epoch.
  let lastQuality: { time: string; quality: number } | null = null;
  let lastNoFixEpoch: string | null = null;

  function record(text: string, result: SentenceResult, reason?: string): void {
    options.onSentence?.(reason === undefined ? { text, result } : { text, result, reason });
  }

  function take(text: string, outcome: SentenceOutcome, fixes: GpsFix[]): void {
    counters.received++;
    switch (outcome.kind) {
      case 'badChecksum':
        counters.badChecksum++;
        return record(text, 'badChecksum', outcome.reason);
      case 'ignored':
        counters.ignored++;
        return record(text, 'ignored', outcome.reason);
      case 'quality':
        lastQuality = { time: outcome.time, quality: outcome.quality };
        counters.ignored++;
        return record(text, 'quality');
      case 'invalid':
        counters.invalid++;
        if (outcome.reason.startsWith('fix quality')) lastNoFixEpoch = epochOf(text);
        return record(text, 'invalid', outcome.reason);
      case 'fix': {
        const fix = outcome.fix;
        if (fix.format === 'NMEA') {
          const epoch = epochOf(text);
          // A GGA of the same epoch saying "no fix" outweighs the RMC's status.
          if (epoch !== null && epoch === lastNoFixEpoch) {
            counters.invalid++;
            return record(text, 'invalid', 'GGA of this epoch reports no fix');
          }
          if (lastQuality && lastQuality.time === epoch) fix.quality = lastQuality.quality;
        }
        const time = Date.parse(fix.time);
        if (time <= lastFixTime) {
          counters.repeated++;
          return record(text, 'repeated', 'not newer than the last fix');
        }
        lastFixTime = time;
        counters.used++;
        fixes.push(fix);
        return record(text, 'used');
      }
    }
  }

  function decodeOne(text: string, receivedAt: Date, fixes: GpsFix[]): void {
    if (format === 'NMEA') {
      const line = text.trim();
      if (line !== '') take(line, decodeNmeaSentence(line), fixes);
    } else {
      take(text, decodeTaipMessage(text, receivedAt), fixes);
    }
  }

  /** Splits `text` into sentences; returns what is left after the last complete one. */
  function split(text: string, receivedAt: Date, fixes: GpsFix[]): string {
    if (format === 'NMEA') {
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        decodeOne(text.slice(start, end), receivedAt, fixes);
        start = end + 1;
      }
      return text.slice(start);
    }
    // TAIP is framed by '>' … '<', with or without line endings between messages.
    let rest = text;
    for (;;) {
      const open = rest.indexOf('>');
      if (open === -1) {
        countNoise(rest);
        return '';
      }
      countNoise(rest.slice(0, open));
      const close = rest.indexOf('<', open);
      const nextOpen = rest.indexOf('>', open + 1);
      if (nextOpen !== -1 && (close === -1 || nextOpen < close)) {
        // A message cut short by the next one's start.
        take(rest.slice(open, nextOpen), { kind: 'invalid', reason: 'message without its end' }, fixes);
        rest = rest.slice(nextOpen);
        continue;
      }
      if (close === -1) return rest.slice(open);
      decodeOne(rest.slice(open, close + 1), receivedAt, fixes);
      rest = rest.slice(close + 1);
    }
  }

  function countNoise(between: string): void {
    if (between.trim() === '') return;
    counters.received++;
    counters.invalid++;
    record(between, 'invalid', 'bytes outside a >…< message');
  }

  function finishPending(): void {
    if (pending.trim() === '') {
      pending = '';
      return;
    }
    const leftover = pending;
    pending = '';
    if (format === 'NMEA') decodeOne(leftover, new Date(), []);
    else take(leftover, { kind: 'invalid', reason: 'message without its end' }, []);
  }

  return {
    format,
    counters,
    pushDatagram(bytes, receivedAt = new Date()) {
      const fixes: GpsFix[] = [];
      const rest = split(toText(bytes), receivedAt, fixes);
      // A datagram's last sentence may come without a line ending.
      if (format === 'NMEA') decodeOne(rest, receivedAt, fixes);
      else if (rest.trim() !== '') take(rest, { kind: 'invalid', reason: 'message without its end' }, fixes);
      return fixes;
    },
    pushStream(bytes, receivedAt = new Date()) {
      const fixes: GpsFix[] = [];
      pending = split(pending + toText(bytes), receivedAt, fixes);
      if (pending.length > MAX_PENDING) {
        // A stream that never ends a sentence is not a GPS: drop it rather than grow without bound.
        take(pending.slice(0, 80), { kind: 'invalid', reason: 'sentence too long' }, fixes);
        pending = '';
      }
      return fixes;
    },
    endStream: finishPending,
  };
}

/** Bytes → text one character per byte, so that no byte sequence can make decoding throw. */
function toText(bytes: Uint8Array | string): string {
  return typeof bytes === 'string'
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
}

/** The hhmmss(.ss) field of an NMEA RMC/GGA sentence, which ties a GGA's quality to its RMC. */
function epochOf(sentence: string): string | null {
  const field = sentence.split(',')[1];
  return field === undefined || field === '' ? null : field;
}
