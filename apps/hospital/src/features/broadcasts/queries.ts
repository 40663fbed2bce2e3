import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { HOSPITAL_EVENTS, type CreateDispatchBody, type SendBroadcastBody } from '@inbound/contract';
import { api } from '../../lib/client';
import { useChannel } from '../../lib/realtime/realtime';

export const broadcastKeys = {
  recipients: (hospitalId: string) => ['broadcast-recipients', hospitalId] as const,
  sent: (hospitalId: string) => ['broadcasts-sent', hospitalId] as const,
  dispatchOptions: (hospitalId: string) => ['dispatch-options', hospitalId] as const,
  dispatches: (hospitalId: string) => ['dispatches', hospitalId] as const,
};

/** The agencies delivering to the hospital: the only ones a broadcast of it may go to. */
export function useBroadcastRecipients(hospitalId: string) {
  return useQuery({
    queryKey: broadcastKeys.recipients(hospitalId),
    queryFn: () => api('broadcastRecipients', { params: { id: hospitalId } }),
  });
}

/** What the hospital sent (from any console), newest first, a page at a time ("Show older"). */
export function useSentBroadcasts(hospitalId: string) {
  return useInfiniteQuery({
    queryKey: broadcastKeys.sent(hospitalId),
    queryFn: ({ pageParam }) =>
      api('sentBroadcasts', { params: { id: hospitalId }, ...(pageParam ? { query: { cursor: pageParam } } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useSendBroadcast(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: z.output<typeof SendBroadcastBody>; idempotencyKey: string }) =>
      api('sendBroadcast', { body, idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.sent(hospitalId) }),
  });
}

/** The composer's agencies (those delivering to the hospital) with their complaints. */
export function useDispatchOptions(hospitalId: string, enabled: boolean) {
  return useQuery({
    queryKey: broadcastKeys.dispatchOptions(hospitalId),
    queryFn: () => api('dispatchOptions', { params: { id: hospitalId } }),
    enabled,
  });
}

export function useCreateDispatch(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: z.output<typeof CreateDispatchBody>; idempotencyKey: string }) =>
      api('createDispatch', { params: { id: hospitalId }, body, idempotencyKey }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: broadcastKeys.sent(hospitalId) }),
        queryClient.invalidateQueries({ queryKey: broadcastKeys.dispatches(hospitalId) }),
      ]),
  });
}

/** Cancels a dispatch no crew has loaded yet (issue 15 item 6). */
export function useCancelDispatch(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dispatchId: string) => api('cancelDispatch', { params: { id: hospitalId, dispatchId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.dispatches(hospitalId) }),
  });
}

/** The hospital's dispatched cases: awaiting a crew, and recently claimed. */
export function useDispatches(hospitalId: string) {
  return useQuery({
    queryKey: broadcastKeys.dispatches(hospitalId),
    queryFn: () => api('dispatches', { params: { id: hospitalId } }),
  });
}

/**
 * Keeps the Sent list and the dispatched cases live: a colleague's broadcast or dispatch, or a crew's
 * claim, is announced on `hospital:{id}`; each (re)subscription reads both again (a lost connection
 * may have missed some).
 */
export function useBroadcastUpdates(hospitalId: string): void {
  const queryClient = useQueryClient();
  const refresh = (key: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey: key });
  useChannel(`hospital:${hospitalId}`, {
    onEvent(event) {
      if (event.type === HOSPITAL_EVENTS.broadcastSent) refresh(broadcastKeys.sent(hospitalId));
      if (event.type === HOSPITAL_EVENTS.dispatchUpdated) refresh(broadcastKeys.dispatches(hospitalId));
    },
    onSubscribed() {
      refresh(broadcastKeys.sent(hospitalId));
      refresh(broadcastKeys.dispatches(hospitalId));
    },
  });
}
