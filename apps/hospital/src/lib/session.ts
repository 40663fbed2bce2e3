/**
 * Where the console keeps its sign-in: the JWT and its expiry, in **sessionStorage**, and nothing else.
 *
 * Why sessionStorage and not localStorage: the console runs on shared ED screens (a workstation beside the
 * ambulance radio that several nurses and physicians use in one shift). A session that survives closing the
 * browser would hand the next person at that screen the previous person's identity. sessionStorage lives
 * and dies with the tab: a reload keeps you signed in, closing the tab or the browser signs you out, and a
 * second tab asks again. No patient data is stored here; it stays in memory (TanStack Query's cache).
 */
import type { AuthToken } from '@inbound/contract';

const STORAGE_KEY = 'inbound.hospital.session';

export type Session = AuthToken;

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: Session | null | undefined;

function isSession(value: unknown): value is Session {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Session).token === 'string' &&
    typeof (value as Session).expirationDate === 'string'
  );
}

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function isExpired(session: Session, now: number = Date.now()): boolean {
  const expiresAt = Date.parse(session.expirationDate);
  return Number.isNaN(expiresAt) || expiresAt <= now;
}

/** The stored session, or null when there is none or its token has expired. */
export function getSession(): Session | null {
  if (cached === undefined) cached = read();
  if (cached && isExpired(cached)) clearSession();
  return cached ?? null;
}

export function setSession(session: Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  cached = session;
  listeners.forEach((listener) => listener());
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  const changed = cached !== null;
  cached = null;
  if (changed) listeners.forEach((listener) => listener());
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
