/**
 * What must not be interrupted by a reload (a new app version, spec §4 "Service worker"): a voice call,
 * a live consult, a recording. One registry, so each of those features says so in one line and the
 * update flow asks one question. No dependencies: it is imported by features and by the update flow.
 *
 *   const release = markBusy('call');   // when the call connects
 *   release();                          // when it ends (idempotent)
 *
 * Components can use `useBusyWhile('recording', isRecording)`.
 */
import { useEffect } from 'react';

const active = new Map<number, string>();
const idleListeners = new Set<() => void>();
let nextToken = 1;

/** Marks the app busy for `reason` until the returned function is called (calling it twice is harmless). */
export function markBusy(reason: string): () => void {
  const token = nextToken++;
  active.set(token, reason);
  return () => {
    if (!active.delete(token) || active.size > 0) return;
    for (const listener of [...idleListeners]) listener();
  };
}

/** True while anything holds a `markBusy`. */
export function isBusy(): boolean {
  return active.size > 0;
}

/** Why the app is busy (for logs and tests), e.g. `['call']`. */
export function busyReasons(): string[] {
  return [...active.values()];
}

/** Resolves at once when not busy, otherwise when the last busy reason is released. */
export function whenIdle(): Promise<void> {
  if (!isBusy()) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = () => {
      idleListeners.delete(listener);
      resolve();
    };
    idleListeners.add(listener);
  });
}

/** Holds `reason` while `busy` is true and the component is mounted. */
export function useBusyWhile(reason: string, busy: boolean): void {
  useEffect(() => (busy ? markBusy(reason) : undefined), [reason, busy]);
}
