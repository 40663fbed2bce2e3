/**
 * When the crew last looked at each case's CHAT tab (the unread badge counts the hospital's messages
 * stored after it). Only case ids and instants, so plain localStorage; kept across reloads so a reload
 * does not make old messages "new" again.
 */
import { useSyncExternalStore } from 'react';

const KEY = 'inbound-chat-seen';
const listeners = new Set<() => void>();

function readAll(): Record<string, string> {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function getLastSeen(caseId: string): string | null {
  return readAll()[caseId] ?? null;
}

export function markSeen(caseId: string, at: string): void {
  const all = readAll();
  if (all[caseId] !== undefined && all[caseId] >= at) return;
  all[caseId] = at;
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused: the badge may count a message twice after a reload; nothing is lost.
  }
  for (const listener of [...listeners]) listener();
}

export function useLastSeen(caseId: string | null): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (caseId ? getLastSeen(caseId) : null),
  );
}
