/**
 * What the crew knows of the arrival, the hand-over and a diversion of its case (issue 15): set from the
 * case channel's events (caseChannel.ts) — no request — and from the case read the channel already makes
 * when it may have missed something (EdAcknowledgement's read). Held in the query cache per case.
 */
import type { Arrival, Case, CaseEvent, Diversion, Handoff } from '@inbound/contract';
import { queryClient } from '../../lib/queryClient';

export interface ArrivalState {
  arrival: Arrival | null;
  handoff: Handoff | null;
  /** A diversion: with the diverting hospital (id and name) so the picker can warn about it too. */
  diversion: (Diversion & { hospitalId: string; hospitalName: string }) | null;
}

export const EMPTY_ARRIVAL: ArrivalState = { arrival: null, handoff: null, diversion: null };
export const arrivalKey = (caseId: string) => ['case-arrival', caseId] as const;

export function arrivalFromCase(c: Case, hospitalName: string | null): ArrivalState {
  const hospitalId = c.destinationHospital?.id ?? '';
  return {
    arrival: c.arrival ?? null,
    handoff: c.handoff ?? null,
    diversion: c.diversion ? { ...c.diversion, hospitalId, hospitalName: hospitalName ?? 'The hospital' } : null,
  };
}

const held = (caseId: string) => queryClient.getQueryData<ArrivalState>(arrivalKey(caseId)) ?? EMPTY_ARRIVAL;

/** Applies a case event of the arrival kinds (and a destination change, which starts them afresh). */
export function applyArrivalEvent(caseId: string, event: CaseEvent & { createdAt: string }): boolean {
  const set = (next: ArrivalState) => queryClient.setQueryData<ArrivalState>(arrivalKey(caseId), next);
  switch (event.type) {
    case 'arrivedAtDestination': {
      const { at, source, byName } = event.payload;
      set({ ...held(caseId), arrival: { at, source, byName } });
      return true;
    }
    case 'handoffAccepted': {
      const { at, byName } = event.payload;
      set({ ...held(caseId), handoff: { at, byName } });
      return true;
    }
    case 'diverted': {
      const { reason, byName, hospitalId, hospitalName } = event.payload;
      set({ ...held(caseId), diversion: { reason, byName, at: event.createdAt, hospitalId, hospitalName } });
      return true;
    }
    case 'hospital':
      set(EMPTY_ARRIVAL);
      return false; // the acknowledgement line handles it too
    default:
      return false;
  }
}
