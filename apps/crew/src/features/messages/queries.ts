import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/apiClient';
import { newestFirst } from './unread';

export const broadcastKeys = { all: ['broadcasts'] as const };

/** Broadcast messages to the user's teams (GET /notification/broadcast/me), newest first. Real-time updates come later. */
export function useBroadcasts() {
  return useQuery({
    queryKey: broadcastKeys.all,
    queryFn: async ({ signal }) => newestFirst((await api.call('broadcasts', { signal })).data),
    refetchInterval: 60_000,
  });
}
