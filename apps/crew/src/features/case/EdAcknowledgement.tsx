/**
 * "Seen by {hospital} ED hh:mm ✓✓" (DeliveryState): the destination ED has acknowledged the case in its
 * console (not in the spec; crews ask for it). Set from the case channel's `acknowledged` event (caseChannel.ts) — no
 * request — and read from the server's case (GET /v4/twiageCases/{id}) only when the subscription may
 * have missed something (a first subscription, a hole). Nothing shows before the case has its server id
 * or before the ED has seen it, nor once the destination is another hospital.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/apiClient';
import { arrivalFromCase, arrivalKey } from '../arrival/arrivalState';
import { useSession } from '../../lib/session';

const hospitalNameOf = (id: string | null) =>
  useSession.getState().selectedTeam?.hospitals.find((h) => h.id === id)?.name ?? null;

export interface Acknowledgement {
  hospitalId: string;
  hospital: string;
  at: string;
}

export const acknowledgementKey = (caseId: string) => ['case-acknowledgement', caseId] as const;

/** The server's word on the acknowledgement (the case as the crew reads it). */
export function readAcknowledgement(queryClient: QueryClient, caseId: string): Promise<Acknowledgement | null> {
  return queryClient.fetchQuery({
    queryKey: acknowledgementKey(caseId),
    queryFn: async ({ signal }) => {
      const c = await api.call('getCase', { params: { id: caseId }, signal });
      const hospitalId = c.destinationHospital?.id ?? null;
      // The same read tells the arrival, hand-over and diversion state (issue 15): no second request.
      queryClient.setQueryData(arrivalKey(caseId), arrivalFromCase(c, hospitalNameOf(hospitalId)));
      return c.acknowledgedAt && c.acknowledgedByHospital && hospitalId
        ? { hospitalId, hospital: c.acknowledgedByHospital, at: c.acknowledgedAt }
        : null;
    },
  });
}

/** The ED's acknowledgement of the case, shown on the status line by DeliveryState ("Seen by … ✓✓"). */
export function useAcknowledgement(caseId: string): Acknowledgement | null {
  // Filled by the case channel (caseChannel.ts); an unconnected screen makes no requests.
  const query = useQuery<Acknowledgement | null>({
    queryKey: acknowledgementKey(caseId),
    queryFn: () => null,
    enabled: false,
  });
  return query.data ?? null;
}
