/**
 * Start's follow-up of the closed case's hand-over (issue 15, decision 0038). The crew closes the case at
 * the door; the ED accepts transfer of care minutes later. The wipe rule (decision 0007) takes every
 * trace of the case off the device once it is delivered, so the close's outbox also asks the server for
 * a watch: the session keeps only its opaque token, the hospital's name and when it expires
 * (lib/session `handoffWatch`, filled by lib/caseOutbox). Start asks the server with the token every
 * HANDOFF_POLL_MS until the hand-over is accepted; the watch goes at its expiry (2 h) or when the server
 * no longer knows the token.
 */
import { useEffect } from 'react';
import { ApiError } from '../../lib/apiError';
import { api } from '../../lib/apiClient';
import { useSession, type HandoffWatch } from '../../lib/session';

/** How often Start asks while the hand-over is still to come (a hand-over takes minutes, not seconds). */
export const HANDOFF_POLL_MS = 15_000;

/** Asks once; keeps what it learns only if the session still holds the same watch. */
export async function pollHandoffWatch(): Promise<void> {
  const watch = useSession.getState().handoffWatch;
  if (!watch || watch.handoff) return;
  const same = () => useSession.getState().handoffWatch?.token === watch.token;
  try {
    const status = await api.call('handoffWatchStatus', { body: { token: watch.token } });
    if (same() && status.handoff) useSession.setState({ handoffWatch: { ...watch, handoff: status.handoff } });
  } catch (error) {
    // Expired, or not this user's: nothing more to follow. Offline or a server error: ask again later.
    if (error instanceof ApiError && error.kind === 'http' && error.status === 404 && same()) {
      useSession.setState({ handoffWatch: null });
    }
  }
}

/** While Start shows the watch: polls until the hand-over is known, and drops the watch at its expiry. */
export function useHandoffWatch(): HandoffWatch | null {
  const watch = useSession((state) => state.handoffWatch);
  const token = watch?.token ?? null;
  const waiting = watch !== null && watch.handoff === null;
  const expiresAt = watch?.expiresAt ?? null;
  useEffect(() => {
    if (token === null || !waiting) return undefined;
    void pollHandoffWatch();
    const timer = setInterval(() => void pollHandoffWatch(), HANDOFF_POLL_MS);
    return () => clearInterval(timer);
  }, [token, waiting]);
  useEffect(() => {
    if (token === null || expiresAt === null) return undefined;
    const drop = () => {
      if (useSession.getState().handoffWatch?.token === token) useSession.setState({ handoffWatch: null });
    };
    const left = Date.parse(expiresAt) - Date.now();
    if (left <= 0) {
      drop();
      return undefined;
    }
    const timer = setTimeout(drop, left);
    return () => clearTimeout(timer);
  }, [token, expiresAt]);
  return watch;
}
