/**
 * The network side of the hospital status list (useHospitalStatuses): the read and the live channel. Its
 * own module so that Start's first paint needs neither the API client with the contract's schemas nor the
 * socket (issue 16, item 11); useHospitalStatuses loads it when it first reads or subscribes.
 */
import type { QueryClient } from '@tanstack/react-query';
import { HospitalStatusesResponse, channelName, type HospitalStatus, type RealtimeEvent } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { realtime } from '../../lib/realtime';
import { hospitalStatusKeys } from './hospitalStatusKeys';

export async function readHospitalStatuses(hospitalId: string, signal: AbortSignal): Promise<HospitalStatus[]> {
  return (await api.call('hospitalStatuses', { params: { id: hospitalId }, signal })).activeStatuses;
}

/** Subscribes to each hospital's status channel; returns the unsubscribe. */
export function subscribeHospitalStatuses(ids: readonly string[], queryClient: QueryClient): () => void {
  const stops = ids.map((id) =>
    realtime.subscribe(channelName('hospital-status', id), {
      onEvent: (event: RealtimeEvent) => applyStatusEvent(queryClient, id, event),
      onSubscribed: () => void queryClient.invalidateQueries({ queryKey: hospitalStatusKeys.one(id) }),
    }),
  );
  return () => stops.forEach((stop) => stop());
}

function applyStatusEvent(queryClient: QueryClient, hospitalId: string, event: RealtimeEvent): void {
  const parsed = HospitalStatusesResponse.safeParse(event.data);
  if (parsed.success && parsed.data.hospitalId === hospitalId) {
    queryClient.setQueryData(hospitalStatusKeys.one(hospitalId), parsed.data.activeStatuses);
    return;
  }
  void queryClient.invalidateQueries({ queryKey: hospitalStatusKeys.one(hospitalId) });
}
