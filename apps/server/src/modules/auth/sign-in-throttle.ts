/**
 * Slows password guessing without locking the real user out (issue 17 item 1). The one interface the
 * sign-in and change-password calls go through; its state lives in the database, so every server
 * process behind a load balancer counts the same failures.
 *
 * - Failures are counted per ACCOUNT (the user's id, whichever of username or e-mail was typed; a name
 *   that matches nobody is counted under the name, so the limit reveals nothing about who exists) and
 *   per account × ADDRESS.
 * - Per account × address the delay grows: after a few free failures each further attempt from that
 *   address must wait 1 s, 2 s, 4 s … (at most MAX_PAIR_DELAY_MS) after the last failure.
 * - Per account, past the limit in the window, attempts are refused — but only from addresses that have
 *   never signed in to the account: the crew tablet or ED workstation that signed in before keeps
 *   signing in with the right password while someone elsewhere hammers the account.
 */
import type { Clock } from '../../clock.js';
import type { AuthRepository } from './auth.repository.js';

/** Failures from one address before the delays start. */
export const FREE_PAIR_FAILURES = 3;
/** The longest wait between two attempts from one address on one account. */
export const MAX_PAIR_DELAY_MS = 5 * 60_000;
/** How long a successful sign-in makes an address "known" for the account. */
export const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export interface SignInAttempt {
  /** The account's user id, or null when the typed name matches nobody. */
  userId: string | null;
  /** What was typed, trimmed and lower-cased (counted when no account matches). */
  typedName: string;
  address: string;
}

export interface SignInThrottle {
  /** Milliseconds the attempt must still wait; 0 when it may go ahead. */
  waitMs(attempt: SignInAttempt): Promise<number>;
  failed(attempt: SignInAttempt): Promise<void>;
  succeeded(attempt: SignInAttempt): Promise<void>;
}

/** The wait after `failures` failures from one address on one account. */
export function pairDelayMs(failures: number): number {
  if (failures < FREE_PAIR_FAILURES) return 0;
  return Math.min(MAX_PAIR_DELAY_MS, 1_000 * 2 ** (failures - FREE_PAIR_FAILURES));
}

const accountKey = (a: SignInAttempt) => (a.userId ? `user:${a.userId}` : `name:${a.typedName}`);
const pairKey = (a: SignInAttempt) => `${accountKey(a)}@${a.address}`;

export function createSignInThrottle({
  repo,
  clock,
  accountLimit,
}: {
  repo: AuthRepository;
  clock: Clock;
  /** Failures per account in a window after which unknown addresses are refused. */
  accountLimit: { max: number; windowMs: number };
}): SignInThrottle {
  const windowStart = (now: Date) => new Date(now.getTime() - accountLimit.windowMs).toISOString();

  return {
    async waitMs(attempt) {
      const now = clock.now();
      const pair = await repo.failureState(pairKey(attempt), windowStart(now));
      if (pair) {
        const wait = Date.parse(pair.lastFailedAt) + pairDelayMs(pair.failures) - now.getTime();
        if (wait > 0) return wait;
      }
      const known =
        attempt.userId !== null &&
        (await repo.isKnownAddress(
          attempt.userId,
          attempt.address,
          new Date(now.getTime() - KNOWN_ADDRESS_MS).toISOString(),
        ));
      if (known) return 0;
      const account = await repo.failureState(accountKey(attempt), windowStart(now));
      if (account && account.failures >= accountLimit.max) {
        return Math.max(1, Date.parse(account.windowStartedAt) + accountLimit.windowMs - now.getTime());
      }
      return 0;
    },

    async failed(attempt) {
      const now = clock.now();
      await repo.recordFailure(accountKey(attempt), now.toISOString(), windowStart(now));
      await repo.recordFailure(pairKey(attempt), now.toISOString(), windowStart(now));
    },

    async succeeded(attempt) {
      // The account's own counter stays: a success here says nothing about guesses from elsewhere.
      await repo.clearFailures(pairKey(attempt));
      if (attempt.userId) await repo.rememberAddress(attempt.userId, attempt.address, clock.now().toISOString());
    },
  };
}
