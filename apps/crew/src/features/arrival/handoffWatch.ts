/**
 * Start's follow-up of the closed case's hand-over (issue 15, decision 0038). The crew closes the case at
 * the door; the ED accepts transfer of care minutes later. The wipe rule (decision 0007) takes every
 * trace of the case off the device once it is delivered, so the close's outbox also asks the server for
 * a watch: the session keeps only its opaque token, the hospital's name and when it expires
 * (lib/session `handoffWatch`, filled by lib/caseOutbox). Start asks the server with the token every
 * HANDOFF_POLL_MS until the hand-over is accepted; the watch goes at its expiry (2 h) or when the server
 * no longer knows the token. The line, and dropping the watch at its expiry, are ClosedHandoffStatus's.
 */
import { useEffect } from 'react';
import { ApiError } from '../../lib/apiError';
import { api } from '../../lib/apiClient';
import { useSession } from '../../lib/session';

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

/**
 * While Start is open: asks until the hand-over is known (ClosedHandoffStatus draws the answer from the
 * session). Part of Start's live chunk, with the API client.
 */
export function useHandoffWatchPolling(): void {
  const token = useSession((state) => state.handoffWatch?.token ?? null);
  const waiting = useSession((state) => state.handoffWatch !== null && state.handoffWatch.handoff === null);
  useEffect(() => {
    if (token === null || !waiting) return undefined;
    void pollHandoffWatch();
    const timer = setInterval(() => void pollHandoffWatch(), HANDOFF_POLL_MS);
    return () => clearInterval(timer);
  }, [token, waiting]);
}
