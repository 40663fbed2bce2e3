/**
 * When to try a mutation again, and which answers are worth trying again at all.
 *
 * Exponential back-off with "equal jitter": the delay is half the exponential step plus a random part
 * of the other half. The fixed half keeps the wait growing (a struggling server really gets room); the
 * random half spreads the ambulances that all lost coverage in the same tunnel so they do not come back
 * in lock-step. Capped at 30 s: a crew that regains coverage must not wait minutes for its changes to go.
 * Media retries on the spec's fixed 2 s (§4 "Media uploads retry every 2 s", §9).
 */
import { MEDIA_UPLOAD_RETRY_MS } from '@inbound/contract';
import type { MutationKind } from './types';

export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 30_000;
/** The longest a server's Retry-After is obeyed; past that we would rather ask again. */
export const RETRY_AFTER_CAP_MS = 5 * 60_000;

/**
 * Delay before the next attempt after `attempts` failed ones (1 = the first failure).
 * `random` is in [0, 1).
 */
export function retryDelayMs(kind: MutationKind, attempts: number, random: number, retryAfterMs?: number): number {
  const backoff =
    kind === 'media'
      ? MEDIA_UPLOAD_RETRY_MS
      : equalJitter(Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1)), random);
  if (retryAfterMs === undefined || !Number.isFinite(retryAfterMs) || retryAfterMs <= 0) return backoff;
  return Math.max(backoff, Math.min(retryAfterMs, RETRY_AFTER_CAP_MS));
}

function equalJitter(step: number, random: number): number {
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

/** What to do with an answer. */
export type Outcome = 'delivered' | 'retry' | 'hold' | 'reject';

/**
 * 2xx: delivered. 401: the session expired — hold everything until the crew signs in again (the change
 * is fine, the token is not). 408, 429, 5xx and no answer: transient, retry. Any other 4xx: the server
 * read the request and refuses it as it is (bad input, not this crew's case, too large, conflicting
 * reuse of the key); sending it again cannot help, so it is set aside as rejected — never dropped.
 * Anything else (1xx, 3xx that fetch did not follow) is not understood: retry rather than lose it.
 */
export function classifyStatus(status: number): Outcome {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 401) return 'hold';
  if (status === 408 || status === 429) return 'retry';
  if (status >= 400 && status < 500) return 'reject';
  return 'retry';
}
