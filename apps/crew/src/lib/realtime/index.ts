/**
 * The app's one real-time connection, wired to the session: the token is read at every connect, a new
 * token reconnects at once (after a 401 hold or a sign-in), and logout (the token gone) closes the
 * socket and forgets the stored sequence numbers.
 */
import { CREW_BACKOFF, createLocalSeqStore, createRealtimeClient } from '@inbound/client';
import { useSession } from '../session';

export type { ChannelListener, ConnectionState, RealtimeClient } from '@inbound/client';

export const REALTIME_PATH = '/realtime';

function realtimeUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${REALTIME_PATH}`;
}

export const realtime = createRealtimeClient({
  url: realtimeUrl,
  getToken: () => useSession.getState().jwt?.token ?? null,
  seqStore: createLocalSeqStore(),
  backoff: CREW_BACKOFF,
});

useSession.subscribe((state, previous) => {
  const token = state.jwt?.token ?? null;
  if (token === (previous.jwt?.token ?? null)) return;
  if (token === null) realtime.close();
  else realtime.reconnect();
});
