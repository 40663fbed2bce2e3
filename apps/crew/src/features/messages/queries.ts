import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { BroadcastMessage, channelName, type RealtimeEvent } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { realtime, type ConnectionState } from '../../lib/realtime';
import { useRealtimeState } from '../../lib/realtime/useChannel';
import { useSession } from '../../lib/session';
import { newestFirst } from './unread';

export const broadcastKeys = { all: ['broadcasts'] as const };

/** While the socket is down, the list is asked for again at this pace (the socket brings it live otherwise). */
export const BROADCAST_FALLBACK_POLL_MS = 60_000;

/**
 * Broadcast messages to the user's teams (GET /notification/broadcast/me), newest first. New ones arrive
 * live on `broadcast:{agencyId}` (useLiveBroadcasts); the 60 s refresh runs only while that socket is
 * not open.
 */
export function useBroadcasts() {
  const connection = useRealtimeState();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: broadcastKeys.all,
    queryFn: async ({ signal }) => {
      const fetched = (await api.call('broadcasts', { signal })).data;
      // A live broadcast that came while this request was out stays.
      const cached = queryClient.getQueryData<BroadcastMessage[]>(broadcastKeys.all) ?? [];
      const ids = new Set(fetched.map((message) => message._id));
      return newestFirst([...fetched, ...cached.filter((message) => !ids.has(message._id))]);
    },
    refetchInterval: broadcastPollInterval(connection),
  });
}

/** The fallback refresh: none while the socket brings broadcasts live, every 60 s otherwise. */
export function broadcastPollInterval(connection: ConnectionState): number | false {
  return connection === 'open' ? false : BROADCAST_FALLBACK_POLL_MS;
}

/** Subscribes to the broadcast channel of each of the user's teams while mounted (the envelope is). */
export function useLiveBroadcasts(): void {
  const queryClient = useQueryClient();
  const agencyIds = useSession((state) => state.teams.map((team) => team.id).join(','));
  useEffect(() => {
    if (!agencyIds) return;
    const stops = agencyIds.split(',').map((agencyId) =>
      realtime.subscribe(channelName('broadcast', agencyId), {
        onEvent: (event) => addBroadcast(queryClient, event),
        // (Re)subscribed: whatever was sent while the socket was down is fetched once.
        onSubscribed: () => void queryClient.invalidateQueries({ queryKey: broadcastKeys.all }),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [agencyIds, queryClient]);
}

export function addBroadcast(queryClient: QueryClient, event: RealtimeEvent): void {
  const parsed = BroadcastMessage.safeParse(event.data);
  if (!parsed.success) {
    void queryClient.invalidateQueries({ queryKey: broadcastKeys.all });
    return;
  }
  // A known message sent again carries a change (a dispatch the hospital cancelled): it replaces ours.
  queryClient.setQueryData<BroadcastMessage[]>(broadcastKeys.all, (list = []) =>
    list.some((message) => message._id === parsed.data._id)
      ? list.map((message) => (message._id === parsed.data._id ? parsed.data : message))
      : newestFirst([parsed.data, ...list]),
  );
}
