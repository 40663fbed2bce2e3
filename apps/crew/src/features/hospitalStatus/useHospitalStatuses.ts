/**
 * The active statuses of the team's hospitals (spec §3 "Hospital status list", §9 "Status badges:
 * critical red, urgent amber"), live: each hospital's `hospital-status:{id}` channel carries
 * 'hospital.status' events. An event with the whole list (`{ hospitalId, activeStatuses }`) replaces it
 * at once; anything else asks `GET /v4/hospitals/{id}/statuses` again, and so does every (re)subscribe
 * (the socket is up: the network is there, and a list changed while we were away is caught). Until then
 * the statuses that came with the team are shown, so the badges also show offline.
 */
import { useEffect } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import {
  HospitalStatusesResponse,
  channelName,
  type Hospital,
  type HospitalStatus,
  type RealtimeEvent,
} from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { realtime } from '../../lib/realtime';

export const hospitalStatusKeys = { one: (id: string) => ['hospitalStatuses', id] as const };

export function useHospitalStatuses(hospitals: readonly Hospital[]): Map<string, HospitalStatus[]> {
  const queryClient = useQueryClient();
  const ids = hospitals.map((hospital) => hospital.id);
  const idsKey = ids.join(',');

  const results = useQueries({
    queries: hospitals.map((hospital) => ({
      queryKey: hospitalStatusKeys.one(hospital.id),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await api.call('hospitalStatuses', { params: { id: hospital.id }, signal })).activeStatuses,
      initialData: hospital.activeStatuses,
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });

  useEffect(() => {
    if (!idsKey) return;
    const stops = idsKey.split(',').map((id) =>
      realtime.subscribe(channelName('hospital-status', id), {
        onEvent: (event: RealtimeEvent) => applyStatusEvent(queryClient, id, event),
        onSubscribed: () => void queryClient.invalidateQueries({ queryKey: hospitalStatusKeys.one(id) }),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [idsKey, queryClient]);

  const map = new Map<string, HospitalStatus[]>();
  hospitals.forEach((hospital, index) => map.set(hospital.id, results[index]?.data ?? hospital.activeStatuses));
  return map;
}

function applyStatusEvent(
  queryClient: ReturnType<typeof useQueryClient>,
  hospitalId: string,
  event: RealtimeEvent,
): void {
  const parsed = HospitalStatusesResponse.safeParse(event.data);
  if (parsed.success && parsed.data.hospitalId === hospitalId) {
    queryClient.setQueryData(hospitalStatusKeys.one(hospitalId), parsed.data.activeStatuses);
    return;
  }
  void queryClient.invalidateQueries({ queryKey: hospitalStatusKeys.one(hospitalId) });
}
