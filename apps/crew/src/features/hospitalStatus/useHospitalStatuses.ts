/**
 * The active statuses of the team's hospitals (spec §3 "Hospital status list", §9 "Status badges:
 * critical red, urgent amber"), live: each hospital's `hospital-status:{id}` channel carries
 * 'hospital.status' events. An event with the whole list (`{ hospitalId, activeStatuses }`) replaces it
 * at once; anything else asks `GET /v4/hospitals/{id}/statuses` again, and so does every (re)subscribe
 * (the socket is up: the network is there, and a list changed while we were away is caught). Until then
 * the statuses that came with the team are shown, so the badges also show offline.
 *
 * The read and the channel live in ./liveStatuses, loaded on first use: Start draws the list from the
 * team's statuses before the API client and its schemas have arrived (issue 16, item 11).
 */
import { useEffect } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { Hospital, HospitalStatus } from '@inbound/contract';
import { hospitalStatusKeys } from './hospitalStatusKeys';

export { hospitalStatusKeys } from './hospitalStatusKeys';

const loadLive = () => import('./liveStatuses');

export function useHospitalStatuses(hospitals: readonly Hospital[]): Map<string, HospitalStatus[]> {
  const queryClient = useQueryClient();
  const ids = hospitals.map((hospital) => hospital.id);
  const idsKey = ids.join(',');

  const results = useQueries({
    queries: hospitals.map((hospital) => ({
      queryKey: hospitalStatusKeys.one(hospital.id),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await loadLive()).readHospitalStatuses(hospital.id, signal),
      initialData: hospital.activeStatuses,
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });

  useEffect(() => {
    if (!idsKey) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    loadLive()
      .then(({ subscribeHospitalStatuses }) => {
        if (!cancelled) stop = subscribeHospitalStatuses(idsKey.split(','), queryClient);
      })
      .catch((error: unknown) => console.error('hospital statuses: the live channel could not load', error));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [idsKey, queryClient]);

  const map = new Map<string, HospitalStatus[]>();
  hospitals.forEach((hospital, index) => map.set(hospital.id, results[index]?.data ?? hospital.activeStatuses));
  return map;
}
