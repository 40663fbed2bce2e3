/**
 * The case event log's rows and the contract's `RecordedCaseEvent`: an event is checked against the
 * contract when it is made (a payload the contract does not describe is a bug, caught before commit),
 * and read back through the same schema.
 */
import type { Insertable, Selectable } from 'kysely';
import { CaseEvent, RecordedCaseEvent, type CaseEventPayload } from '@inbound/contract';
import { parseJson, toJson } from '../../db/json.js';
import { timeOrderedId } from '../../db/time-ordered-id.js';
import type { CaseEventsTable } from '../../db/schema.js';

export interface EventOrigin {
  caseId: string;
  seq: number;
  /** Null: the server itself (a scheduled re-alert). */
  actorUserId: string | null;
  createdAt: string;
  clientCreatedAt: string | null;
}

/** A new event of the case, numbered `seq`; the event's type and payload are checked with the contract. */
export function newCaseEvent<T extends CaseEvent['type']>(
  origin: EventOrigin,
  type: T,
  payload: CaseEventPayload<T>,
): RecordedCaseEvent {
  return { id: timeOrderedId(), ...origin, ...CaseEvent.parse({ type, payload }) };
}

export function eventRow(event: RecordedCaseEvent): Insertable<CaseEventsTable> {
  return {
    id: event.id,
    case_id: event.caseId,
    seq: event.seq,
    type: event.type,
    actor_user_id: event.actorUserId ?? '',
    created_at: event.createdAt,
    client_created_at: event.clientCreatedAt,
    payload: toJson(event.payload),
  };
}

/** A stored event as the contract describes it; null for a row the contract does not describe. */
export function recordedEvent(row: Selectable<CaseEventsTable>): RecordedCaseEvent | null {
  const parsed = RecordedCaseEvent.safeParse({
    id: row.id,
    caseId: row.case_id,
    seq: Number(row.seq),
    createdAt: row.created_at,
    clientCreatedAt: row.client_created_at,
    actorUserId: row.actor_user_id === '' ? null : row.actor_user_id,
    type: row.type,
    payload: parseJson<unknown>(row.payload, null),
  });
  return parsed.success ? parsed.data : null;
}

/** What a write answers about its event (`CaseChangeResponse.event`). */
export const eventRef = (event: RecordedCaseEvent) => ({
  id: event.id,
  seq: event.seq,
  type: event.type,
  createdAt: event.createdAt,
});
