import { useSyncExternalStore } from 'react';

/**
 * One shared one-second clock for the board's ticking texts ("Started 7 min ago", "LKW 13:02 (50 min
 * ago)"). Each text subscribes on its own, so a tick re-renders those few text nodes — not every card.
 */
const listeners = new Set<() => void>();
let current = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    current = Date.now();
    timer = setInterval(() => {
      current = Date.now();
      listeners.forEach((notify) => notify());
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

export function useSecondClock(): number {
  return useSyncExternalStore(subscribe, () => current);
}
