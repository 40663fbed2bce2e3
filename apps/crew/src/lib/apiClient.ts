/** The app's one API client, wired to the session: the stored token goes out, a 401 goes to lib/unauthorized. */
import { createApiClient } from './api';
import { useSession } from './session';
import { reportUnauthorized } from './unauthorized';

export const api = createApiClient({
  getToken: () => useSession.getState().jwt?.token ?? null,
  onUnauthorized: reportUnauthorized,
});
