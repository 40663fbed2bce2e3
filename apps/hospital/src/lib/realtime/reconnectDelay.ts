/**
 * Wait before the next connection attempt: exponential with equal jitter (half fixed, half random), so
 * consoles a server restart dropped at once do not all come back in the same millisecond. Capped at
 * 15 s: a board that is not live is a board staff cannot trust, so it must not wait long to retry.
 */
export const RECONNECT_BASE_MS = 500;
export const RECONNECT_CAP_MS = 15_000;

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
