/** The one API client the console uses, wired to the session: its token, and sign-out on a 401. */
import { createApiClient } from './api';
import { clearSession, getSession } from './session';

export const api = createApiClient({
  getToken: () => getSession()?.token ?? null,
  onUnauthorized: clearSession,
});
