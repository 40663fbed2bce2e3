import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BroadcastMessage, SendBroadcastBody } from '@inbound/contract';
import { api } from '../../lib/client';

export const broadcastKeys = {
  recipients: (hospitalId: string) => ['broadcast-recipients', hospitalId] as const,
  sent: (hospitalId: string) => ['broadcasts-sent', hospitalId] as const,
};

/** The agencies delivering to the hospital: the only ones a broadcast of it may go to. */
export function useBroadcastRecipients(hospitalId: string) {
  return useQuery({
    queryKey: broadcastKeys.recipients(hospitalId),
    queryFn: () => api('broadcastRecipients', { params: { id: hospitalId } }),
  });
}

/**
 * What this console sent since sign-in, newest first. The server has no "sent by hospital" list, so it
 * lives in the query cache (memory only, like the rest of the console's data) and is never fetched.
 */
export function useSentBroadcasts(hospitalId: string): BroadcastMessage[] {
  return (
    useQuery({
      queryKey: broadcastKeys.sent(hospitalId),
      queryFn: () => [] as BroadcastMessage[],
      staleTime: Infinity,
      gcTime: Infinity,
    }).data ?? []
  );
}

export function useSendBroadcast(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: z.output<typeof SendBroadcastBody>; idempotencyKey: string }) =>
      api('sendBroadcast', { body, idempotencyKey }),
    onSuccess: (sent) =>
      queryClient.setQueryData<BroadcastMessage[]>(broadcastKeys.sent(hospitalId), (list = []) =>
        // A replayed answer is the same broadcast; list it once.
        [sent, ...list.filter((b) => b._id !== sent._id)],
      ),
  });
}
