/**
 * What may show ON the idle lock screen (issue 15 over issue 17): the alerts that must reach a console
 * nobody has touched for 15 minutes — a team activation calling the user, the charge-nurse offload alert —
 * as a non-PHI summary only (team, "case arriving", hospital, alert round; never the patient, the
 * complaint or the case number). The components behind the lock publish their summaries here while they
 * stay mounted; the lock screen reads them. Answering ("On my way", Accept handoff) still needs the unlock
 * (decision 0035).
 */
import { useEffect, useSyncExternalStore } from 'react';

export interface LockAlert {
  /** Stable per alert (React key and de-duplication). */
  key: string;
  title: string;
  detail: string;
}

const bySource = new Map<string, readonly LockAlert[]>();
const listeners = new Set<() => void>();
let snapshot: readonly LockAlert[] = [];

/** A source's current lock-screen alerts (replaces what it published before; none clears them). */
export function setLockAlerts(source: string, alerts: readonly LockAlert[]) {
  if (alerts.length === 0) bySource.delete(source);
  else bySource.set(source, alerts);
  snapshot = [...bySource.values()].flat();
  for (const listener of listeners) listener();
}

export function lockAlertsSnapshot(): readonly LockAlert[] {
  return snapshot;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Publishes `alerts` under `source` while the calling component is mounted. */
export function usePublishLockAlerts(source: string, alerts: readonly LockAlert[]) {
  const signature = JSON.stringify(alerts);
  useEffect(() => {
    setLockAlerts(source, JSON.parse(signature) as LockAlert[]);
  }, [source, signature]);
  useEffect(() => () => setLockAlerts(source, []), [source]);
}

export function useLockAlerts(): readonly LockAlert[] {
  return useSyncExternalStore(subscribe, lockAlertsSnapshot, lockAlertsSnapshot);
}
