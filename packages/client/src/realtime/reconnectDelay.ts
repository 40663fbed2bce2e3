/**
 * How long to wait before the next connection attempt. Exponential with "equal jitter" (as the outbox's
 * retries): half the step is fixed so a struggling server really gets room, the other half is random so
 * that the clients a server restart disconnected all at once do not come back in lock-step.
 *
 * Each app picks its cap: a crew on patchy coverage waits up to 30 s (many ambulances must not hammer a
 * server coming back), a console — on a wired screen, whose board staff cannot trust while it is not
 * live — up to 15 s, starting from a shorter first step.
 */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

export const CREW_BACKOFF: Backoff = { baseMs: 1_000, capMs: 30_000 };
export const CONSOLE_BACKOFF: Backoff = { baseMs: 500, capMs: 15_000 };

/** Delay after `failures` failed or lost connections in a row (1 = the first); `random` in [0, 1). */
export function reconnectDelayMs(failures: number, random: number, backoff: Backoff = CREW_BACKOFF): number {
  const step = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

/**
 * After a close with "restart" (REALTIME_CLOSE.restart: the server process is draining) while the link
 * was good: come back within this, jittered — another process takes the socket and the client resumes
 * from its last sequence number. A restart close on a link already failing backs off as usual.
 */
export const RESTART_RECONNECT_MS = 250;
