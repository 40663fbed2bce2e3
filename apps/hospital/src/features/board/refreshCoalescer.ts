/**
 * Coalesces "something changed, read it again" notices into as few reads as keep the reader correct.
 *
 * - A notice starts a window (`windowMs`); every notice in it is answered by ONE read at its end, so a
 *   burst of location reports from many crews costs one board read, not one each.
 * - At most one read runs at a time. A notice that arrives while a read runs may describe a write the
 *   read did not see (it may have been answered before the write committed), so it is never dropped:
 *   it marks the reader dirty, and one more read follows (after a window) when the running one ends —
 *   whether that one succeeded or failed.
 *
 * So after the last notice of any burst, a read that started after it always completes: no lost update,
 * no stale card, and never more than one read per window plus the read's own time.
 */
export interface RefreshCoalescer {
  /** Something changed: read again soon. */
  notify(): void;
  /** Stop: drop a pending window and never read again (a running read is left to finish). */
  dispose(): void;
}

export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export const BOARD_REFRESH_WINDOW_MS = 150;

export function createRefreshCoalescer(
  read: () => Promise<unknown>,
  windowMs = BOARD_REFRESH_WINDOW_MS,
  timers: Timers = realTimers,
): RefreshCoalescer {
  let pending: unknown = null;
  let running = false;
  let dirty = false;
  let disposed = false;

  function schedule() {
    if (pending !== null || disposed) return;
    pending = timers.setTimeout(() => {
      pending = null;
      run();
    }, windowMs);
  }

  function run() {
    if (disposed) return;
    running = true;
    dirty = false;
    let done: Promise<unknown>;
    try {
      done = read();
    } catch (error) {
      done = Promise.reject(error);
    }
    done
      .catch(() => undefined) // the query shows its own error; the next notice reads again
      .finally(() => {
        running = false;
        if (dirty) schedule();
      });
  }

  return {
    notify() {
      if (disposed) return;
      if (running) dirty = true;
      else schedule();
    },
    dispose() {
      disposed = true;
      if (pending !== null) timers.clearTimeout(pending);
      pending = null;
    },
  };
}
