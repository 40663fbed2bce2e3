/**
 * How long to wait before the next connection attempt. Exponential with "equal jitter" (as the outbox's
 * retries): half the step is fixed so a struggling server really gets room, the other half is random so
 * that the ambulances a server restart disconnected all at once do not come back in lock-step. Capped at
 * 30 s: a crew that regains coverage must not wait minutes for chat and transfer updates.
 */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_CAP_MS = 30_000;

/** Delay after `failures` failed or lost connections in a row (1 = the first); `random` in [0, 1). */
export function reconnectDelayMs(failures: number, random: number): number {
  const step = Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

/**
 * After a close with "restart" (REALTIME_CLOSE.restart: the server process is draining) while the link
 * was good: come back within this, jittered — another process takes the socket and the client resumes
 * from its last sequence number. A restart close on a link already failing backs off as usual.
 */
export const RESTART_RECONNECT_MS = 250;
