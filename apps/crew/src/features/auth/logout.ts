/**
 * Logout (spec §4), the one place every way out goes through: the Logout rows, auto-logout, an expired
 * token, a 401. It also asks the service worker to clear its runtime cache (the team, hospital statuses
 * and complaint set it kept for offline starts; the app shell stays). A later issue adds the push
 * unsubscribe (`user-{id}`) here.
 */
import { queryClient } from '../../lib/queryClient';
import { clearSession, useSession, wipeStoredSession } from '../../lib/session';
import { clearServiceWorkerRuntimeCache } from '../../pwa/swMessages';

export async function logout(): Promise<void> {
  const token = useSession.getState().jwt?.token;
  // Local state first, so the screen goes back to login at once, even with no network.
  clearSession();
  queryClient.clear();
  void clearServiceWorkerRuntimeCache();
  await wipeStoredSession();
  if (token) {
    try {
      // Loaded on demand: the API client and its schemas are not part of the first screen's code.
      const { api } = await import('../../lib/apiClient');
      await api.call('signOut', { token });
    } catch {
      // Best effort: the token expires on its own; the device no longer has it.
    }
  }
}
