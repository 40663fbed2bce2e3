import { HospitalStatusesResponse, type RealtimeEvent } from '@inbound/contract';

/**
 * The active list a `hospital.status` notice carries, or null when the notice is something else or is
 * for another hospital — a malformed notice is ignored rather than shown as an empty list.
 */
export function activeStatusesFromEvent(event: RealtimeEvent, hospitalId: string): HospitalStatusesResponse | null {
  if (event.type !== 'hospital.status') return null;
  const parsed = HospitalStatusesResponse.safeParse(event.data);
  if (!parsed.success || parsed.data.hospitalId !== hospitalId) return null;
  return parsed.data;
}
