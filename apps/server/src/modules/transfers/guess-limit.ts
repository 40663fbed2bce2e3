/**
 * Guessing a number that hands over a case — a live six-digit transfer code, or a dispatched case's
 * number — is the attack on both. A person mistypes a few times; a user with CODE_MISSES_PER_MINUTE
 * unknown numbers in a minute waits for the minute to pass. One limiter serves both calls, so switching
 * between them gains no guesses. Counted per user (not per address: many ambulances share a carrier's
 * address) — in Redis when several processes serve (`createRedisGuessLimiter`, issue 11), so switching
 * process gains no guesses either; in memory for one process.
 */
import type { Clock } from '../../clock.js';
import { tooManyRequests } from '../../errors.js';

export const CODE_MISSES_PER_MINUTE = 10;
const CODE_MISS_WINDOW_MS = 60_000;
const CODE_MISS_TABLE_MAX = 10_000;

export interface GuessLimiter {
  /** Throws 429 while the user has used up the minute's misses. */
  refuseGuessing(userId: string): void | Promise<void>;
  recordMiss(userId: string): void | Promise<void>;
}

/** The Redis commands the shared limiter uses (ioredis' client has them). */
export interface GuessStore {
  get(key: string): Promise<string | null>;
  /** Counts a miss; the first of a window starts the window's expiry. */
  eval(script: string, keys: number, key: string, windowMs: number): Promise<unknown>;
}

const COUNT_MISS = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * The same limit, counted in Redis so every process sees every miss: one key per user, its window
 * starting at the first miss (as in memory). If Redis fails, the in-process limiter answers meanwhile
 * (still a limit, per process) and the failure is reported — a crew is not stopped by a Redis outage.
 */
export function createRedisGuessLimiter(
  store: GuessStore,
  prefix: string,
  clock: Clock,
  onError: (error: Error) => void,
): GuessLimiter {
  const local = createGuessLimiter(clock);
  const key = (userId: string) => `${prefix}code-misses:${userId}`;
  return {
    async refuseGuessing(userId) {
      let count: string | null;
      try {
        count = await store.get(key(userId));
      } catch (error) {
        onError(error as Error);
        local.refuseGuessing(userId);
        return;
      }
      if (Number(count ?? 0) >= CODE_MISSES_PER_MINUTE) throw tooManyRequests();
    },
    async recordMiss(userId) {
      local.recordMiss(userId);
      try {
        await store.eval(COUNT_MISS, 1, key(userId), CODE_MISS_WINDOW_MS);
      } catch (error) {
        onError(error as Error);
      }
    },
  };
}

/** The in-process limiter: answers at once. */
export interface LocalGuessLimiter extends GuessLimiter {
  refuseGuessing(userId: string): void;
  recordMiss(userId: string): void;
}

export function createGuessLimiter(clock: Clock): LocalGuessLimiter {
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
