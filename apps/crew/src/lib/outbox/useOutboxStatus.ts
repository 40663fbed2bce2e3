/**
 * What the outbox holds, for a screen: "3 changes waiting to send", "Session expired — sign in to send",
 * rejected changes with the server's words. Reads the outbox's immutable snapshot through
 * `useSyncExternalStore`, and ticks once a second while something waits so the age stays true.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { pendingAgeMs, type Outbox } from './outbox';
import type { RejectedMutation } from './types';

export interface OutboxStatus {
  /** Changes waiting to be sent — of the case, or of all cases. */
  pending: number;
  /** How long the oldest of them has waited (ms), null when none. */
  oldestPendingAgeMs: number | null;
  /** Held after a 401 until the crew signs in again. */
  held: boolean;
  online: boolean;
  /** Changes the server refused, with its message. */
  rejected: readonly RejectedMutation[];
  /** A placeholder case whose create is not queued (e.g. refused): its changes cannot go. */
  blocked: boolean;
}

const AGE_TICK_MS = 1_000;

export function useOutboxStatus(outbox: Outbox, caseId?: string): OutboxStatus {
  const snapshot = useSyncExternalStore(outbox.subscribeSnapshot, outbox.snapshot, outbox.snapshot);
  const caseStatus = caseId === undefined ? undefined : snapshot.byCase[caseId];
  const pending = caseId === undefined ? snapshot.pendingTotal : (caseStatus?.pending ?? 0);
  const oldestPendingAt = caseId === undefined ? snapshot.oldestPendingAt : (caseStatus?.oldestPendingAt ?? null);

  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (pending === 0) return;
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, [pending]);

  return {
    pending,
    oldestPendingAgeMs:
      oldestPendingAt === null ? null : pendingAgeMs({ ...snapshot, oldestPendingAt }, Math.max(now, oldestPendingAt)),
    held: snapshot.held,
    online: snapshot.online,
    rejected:
      caseId === undefined ? snapshot.rejected : snapshot.rejected.filter((mutation) => mutation.caseId === caseId),
    blocked: caseStatus?.blocked ?? false,
  };
}
