import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from '../../lib/session';

/** The current token, re-rendering when the console signs in or out (also on a 401 from any call). */
export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeSession, () => getSession()?.token ?? null);
}
