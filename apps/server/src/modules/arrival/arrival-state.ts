/**
 * The case row's arrival, hand-over and diversion columns (issue 15) to and from the contract's shapes:
 * one place, used by the cases service (which writes them), the board's cards and the crew's case.
 */
import type { Arrival, ArrivalSource, Diversion, Handoff } from '@inbound/contract';
import type { CaseRow, CasesTable } from '../../db/schema.js';
import type { Updateable } from 'kysely';

export function arrivalChanges(arrival: Arrival): Updateable<CasesTable> {
  return {
    destination_arrived_at: arrival.at,
    destination_arrival_source: arrival.source,
    destination_arrived_by_name: arrival.byName,
  };
}

/** A new destination: arrival, hand-over and diversion start afresh. */
export const diversionCleared = {
  destination_arrived_at: null,
  destination_arrival_source: null,
  destination_arrived_by_name: null,
  geofence_entered_at: null,
  handoff_at: null,
  handoff_by: null,
  handoff_by_name: null,
  diverted_at: null,
  diverted_by_name: null,
  diversion_reason: null,
  diverted_hospital_id: null,
} satisfies Updateable<CasesTable>;

type ArrivalColumns = Pick<
  CaseRow,
  | 'destination_arrived_at'
  | 'destination_arrival_source'
  | 'destination_arrived_by_name'
  | 'handoff_at'
  | 'handoff_by_name'
  | 'diverted_at'
  | 'diverted_by_name'
  | 'diversion_reason'
  | 'diverted_hospital_id'
  | 'destination_hospital_id'
>;

export function arrivalOf(row: ArrivalColumns): Arrival | null {
  if (row.destination_arrived_at === null) return null;
  const source: ArrivalSource = row.destination_arrival_source ?? 'hospital';
  return { at: row.destination_arrived_at, source, byName: row.destination_arrived_by_name };
}

export function handoffOf(row: ArrivalColumns): Handoff | null {
  return row.handoff_at !== null && row.handoff_by_name !== null
    ? { at: row.handoff_at, byName: row.handoff_by_name }
    : null;
}

/** The pending diversion, counted only while the diverting hospital is still the destination. */
export function diversionOf(row: ArrivalColumns): Diversion | null {
  if (row.diverted_at === null || row.diverted_hospital_id !== row.destination_hospital_id) return null;
  return { at: row.diverted_at, byName: row.diverted_by_name ?? '', reason: row.diversion_reason ?? '' };
}

/** The card's (and the crew case's) arrival fields. */
export const arrivalFields = (row: ArrivalColumns) => ({
  arrival: arrivalOf(row),
  handoff: handoffOf(row),
  diversion: diversionOf(row),
});
