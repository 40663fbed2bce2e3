/**
 * Guessing a number that hands over a case — a live six-digit transfer code, or a dispatched case's
 * number — is the attack on both. A person mistypes a few times; a user with CODE_MISSES_PER_MINUTE
 * unknown numbers in a minute waits for the minute to pass. One limiter serves both calls, so switching
 * between them gains no guesses. Counted per user and per process (not per address: many ambulances
 * share a carrier's address).
 */
import type { Clock } from '../../clock.js';
import { tooManyRequests } from '../../errors.js';

export const CODE_MISSES_PER_MINUTE = 10;
const CODE_MISS_WINDOW_MS = 60_000;
const CODE_MISS_TABLE_MAX = 10_000;

export interface GuessLimiter {
  /** Throws 429 while the user has used up the minute's misses. */
  refuseGuessing(userId: string): void;
  recordMiss(userId: string): void;
}

export function createGuessLimiter(clock: Clock): GuessLimiter {
  const codeMisses = new Map<string, { count: number; since: number }>();
  return {
    refuseGuessing(userId) {
      const entry = codeMisses.get(userId);
      if (!entry) return;
      if (clock.now().getTime() - entry.since >= CODE_MISS_WINDOW_MS) codeMisses.delete(userId);
      else if (entry.count >= CODE_MISSES_PER_MINUTE) throw tooManyRequests();
    },
    recordMiss(userId) {
      const at = clock.now().getTime();
      if (codeMisses.size >= CODE_MISS_TABLE_MAX) {
        for (const [id, entry] of codeMisses) if (at - entry.since >= CODE_MISS_WINDOW_MS) codeMisses.delete(id);
      }
      const entry = codeMisses.get(userId);
      if (entry) entry.count += 1;
      else codeMisses.set(userId, { count: 1, since: at });
    },
  };
}
