/**
 * The case (spec §3, §4, §5, §7). Every change is one append-only `case_events` row and the matching
 * update of the case's current state (`cases`, `case_tags`, `case_tag_values`), written in one
 * transaction together with the request's idempotency key and first answer; the answer goes out
 * only after that commit, which is durable (SQLite synchronous=FULL, PostgreSQL synchronous_commit=on).
 *
 * A write goes in two steps:
 *   1. outside the transaction: replay a known idempotency key; the access check; the checks against
 *      reference data of other modules (team, complaint set, forms) — read through their services;
 *   2. inside it: lock the case row, refuse a closed case, check what depends on the case's current
 *      state, append the events, store the key (a duplicate that raced past step 1 fails on the key's
 *      unique index there and is answered with the winner's stored answer).
 * Step 1 stays outside because another module's reads must not run inside our transaction (on SQLite
 * the writer connection is held by it). On PostgreSQL a crew's change (`changeCase`) does not read the
 * case again in step 2: its first UPDATE of the case checks that the row is still the version step 1
 * read, and a write that finds it moved is made again the locked way (decision 0050); a change of one
 * event and nothing else is step 2 as one statement, with no transaction around it (decision 0054).
 *
 * Who: case-access.ts — the crews on the case's access list read it, only its owner writes it; others
 * 403, an unknown id 404. `access` is that policy, for the other modules (channels, media, chat, board).
 */
import { randomUUID } from 'node:crypto';
import type { Transaction, Updateable } from 'kysely';
import {
  AgePeriod,
  DEFAULT_AGE_PERIOD,
  serverMessages,
  type Case,
  type CaseChangeResponse,
  type CaseChannelMessage,
  type CaseEvent,
  type CaseEventPayload,
  type RecordedCaseEvent,
  type CaseFeedbackBody,
  type CreateCaseBody,
  type CreateCaseResponse,
  type DynamicFormBody,
  type Hospital,
  type LocationUpdateBody,
  type PatchCaseBody,
  type PatientInfoEntry,
  type PatientInfoField,
  type TagFieldValue,
  type TagValuesBody,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { parseJson, toJson } from '../../db/json.js';
import type { CaseRow, CasesTable, DB } from '../../db/schema.js';
import { arrivalChanges, arrivalFields, diversionCleared } from '../arrival/arrival-state.js';
import { stateAfter, stepFence, type Fence } from '../arrival/geofence.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOnTeam, type Principal } from '../auth/principal.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import { randomCaseNumber, type CaseNumberSource } from './case-number.js';
import { checkPatientInfo, checkTagValues, findTag, requireTagOfComplaint } from './case-rules.js';
import { lastLocationOf } from './last-location.js';
import { eventRef, newCaseEvent } from './case-event-log.js';
import { enqueueCaseMessage } from './case-outbox.js';
import { createCaseAccess, ownedCase, seenByDestination, type CaseAccess, type CaseWithRole } from './case-access.js';
import {
  isCaseNumberViolation,
  isEventNumberViolation,
  isUniqueViolation,
  StaleCase,
  type CasesRepository,
  type RowVersion,
} from './cases.repository.js';

/** What the route layer reads from the request for every write. */
export interface WriteContext {
  idempotencyKey: string;
  /** sha-256 of method, URL and body: the same key with another request is refused. */
  requestHash: string;
  /** The client's Created-At header, normalised to UTC, or null when absent or not a time. */
  clientCreatedAt: string | null;
}

/** A write's answer, and whether it is the stored answer of an earlier request with the same key. */
export interface Answer<T> {
  body: T;
  replayed: boolean;
}

/** A case write's answer and the events it recorded (none for a replay: they were recorded the first time). */
export interface CaseAnswer<T> extends Answer<T> {
  events: RecordedCaseEvent[];
}

/** The destination ED's "seen" (board acknowledge). */
export interface AcknowledgeInput {
  caseId: string;
  hospitalId: string;
  hospitalName: string;
  userId: string;
  byName: string;
}

export type AcknowledgeOutcome =
  | { kind: 'acknowledged'; at: string }
  | { kind: 'already'; byName: string; at: string }
  | { kind: 'gone' }
  | { kind: 'closed' };

export interface CasesServiceDeps {
  repo: CasesRepository;
  clock: Clock;
  agencies: {
    agencyForCase(agencyId: string): Promise<{ id: string; complaintSetName: string; truckIds: string[] } | null>;
    hospitalIds(agencyId: string): Promise<string[]>;
    monitors(agencyId: string): Promise<{ id: string; name: string; type: string }[]>;
    patientInfoForms(agencyId: string): Promise<{ id: string; fields: PatientInfoField[] }[]>;
  };
  complaints: {
    newestSet(name: string): Promise<PublishedSet | null>;
    setById(id: string): Promise<PublishedSet | null>;
  };
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
  /** Whether a transfer of the case is live (open, a request perhaps accepted): it blocks closing. */
  transfers?: { inProgress(caseId: string): Promise<boolean> };
  /** The one case-access policy (case-access.ts), when the composition root shares it with other modules. */
  access?: CaseAccess;
  /** The outbox relay: woken after each commit of case events (case-outbox.ts). */
  outbox?: { wake(): void };
  caseNumbers?: CaseNumberSource;
  /** The destination's geofence (issue 15): null when the hospital has no location. */
  arrival?: { fenceOf(hospitalId: string): Promise<Fence | null> };
}

/**
 * A write of a case under its row lock (the crew's changes, the ED's arrival, hand-over and diversion):
 * the row as locked, and how to record. `update` changes the case's columns: the change goes in the
 * UPDATE that moves the case's version to the write's next event (one statement where there were two:
 * issue 11), or at the end of the write when no event follows.
 */
export interface CaseWrite {
  trx: Transaction<DB>;
  current: CaseRow;
  now: string;
  emit: Emit;
  update(changes: Updateable<CasesTable>): Promise<void>;
}

/** A step of a case transfer (transfers module) that changes who holds the case. */
export interface TransferStep {
  caseId: string;
  transferId: string;
  /** Who made the step (for an expiry: the crew that opened the transfer). */
  actorUserId: string;
  at: string;
}

/** A dispatched case a crew claimed (dispatch module): the case it becomes. */
export interface ClaimedCase {
  caseId: string;
  caseNumber: string;
  ownerId: string;
  agencyId: string;
  truckId: string;
  complaintSet: { id: string; name: string };
  complaintId: string | null;
  hospitalId: string;
  dispatchId: string;
}

const CASE_NUMBER_DRAWS = 8;
const CLOSE_DURING_TRANSFER_MESSAGE =
  'This case cannot be closed while a case transfer of it is in progress. Cancel the transfer, or wait until it ends.';

type EventRef = NonNullable<CaseChangeResponse['event']>;
/** Records one event of the case in the write's transaction and answers it as recorded. */
export type Emit = <T extends CaseEvent['type']>(type: T, payload: CaseEventPayload<T>) => Promise<RecordedCaseEvent>;
export type Apply<T> = (write: CaseWrite) => Promise<T>;

/** A write tried alone (PostgreSQL, decision 0054) that uses the transaction or records a second event: it takes one. */
class NeedsTransaction extends Error {}

/** Thrown inside a transaction when a duplicate turns up there: rolls it back, then the stored answer is sent. */
class Replay {
  constructor(readonly stored: { request_hash: string; response: string }) {}
}

export function createCasesService(deps: CasesServiceDeps) {
  const { repo, clock, agencies, complaints, hospitals } = deps;
  const access =
    deps.access ??
    createCaseAccess({
      findWithAccess: (caseId, userId) => repo.findWithAccess(caseId, userId),
      findCase: (caseId) => repo.findById(caseId),
      hospitalsByIds: (ids) => hospitals.hospitalsByIds(ids),
    });
  /** After a commit that recorded events: the outbox relays them now. */
  const committed = () => deps.outbox?.wake();

  /**
   * A call or live consult of the case ended: `end` moves its row to ended in this transaction and answers
   * the event's payload, or null when it had ended already (then nothing is recorded). Whoever hung up is
   * the actor — crew or ED staff — and a closed case still gets it.
   */
  async function recordEnded<T extends 'call' | 'liveconsult'>(
    type: T,
    caseId: string,
    actorUserId: string,
    end: (trx: Transaction<DB>, now: string) => Promise<CaseEventPayload<T> | null>,
  ): Promise<RecordedCaseEvent | null> {
    const event = await repo.transaction(async (trx) => {
      const current = await repo.lockForWrite(trx, caseId);
      if (!current) return null;
      const now = clock.now().toISOString();
      const payload = await end(trx, now);
      if (!payload) return null;
      const origin = { caseId, seq: Number(current.version) + 1, actorUserId, createdAt: now, clientCreatedAt: null };
      const recorded = newCaseEvent(origin, type, payload);
      await repo.appendEvent(trx, recorded);
      return recorded;
    });
    if (event) committed();
    return event;
  }

  /**
   * A write of another module under the case's row lock (arrival, hand-over, diversion, team activation):
   * one transaction with the events `apply` emits (actor: `actorUserId`, null for the server's own
   * scheduler), relayed by the outbox after the commit. Null when the case is gone.
   */
  async function lockedWrite<T>(
    caseId: string,
    actorUserId: string | null,
    apply: (write: CaseWrite) => Promise<T>,
  ): Promise<T | null> {
    let recorded = 0;
    const result = await repo.transaction(async (trx) => {
      const current = await repo.lockForWrite(trx, caseId);
      if (!current) return null;
      const now = clock.now().toISOString();
      const { write, events, finish } = caseWrite(trx, current, now, { actorUserId, clientCreatedAt: null });
      const answer = await apply(write);
      await finish();
      recorded = events.length;
      return answer;
    });
    if (recorded > 0) committed();
    return result;
  }

  /** The `CaseWrite` of a case locked in `trx`; `finish` writes a column change no event followed. */
  function caseWrite(
    trx: Transaction<DB>,
    current: CaseRow,
    now: string,
    actor: { actorUserId: string | null; clientCreatedAt: string | null },
    unlocked: RowVersion | null = null,
  ) {
    const caseId = current.id;
    let seq = Number(current.version);
    let pending: Updateable<CasesTable> = {};
    const events: RecordedCaseEvent[] = [];
    // `current` read before the transaction, not locked (PostgreSQL, changeCase): the first event's UPDATE
    // writes only that version of the row, and takes the row lock for the rest of the write.
    let expected = unlocked;
    const emit: Emit = async (type, payload) => {
      seq += 1;
      const event = newCaseEvent({ caseId, seq, createdAt: now, ...actor }, type, payload);
      const changes = pending;
      pending = {};
      await repo.appendEvent(trx, event, changes, expected);
      expected = null;
      events.push(event);
      return event;
    };
    const update = async (changes: Updateable<CasesTable>) => {
      pending = { ...pending, ...changes };
    };
    const finish = async () => {
      // No event checked the row: it is checked (and locked) now, before anything is answered from it.
      if (expected !== null) await repo.confirmUnchanged(trx, caseId, expected);
      if (Object.keys(pending).length > 0) await repo.updateCase(trx, caseId, pending);
      pending = {};
    };
    return { write: { trx, current, now, emit, update }, events, finish };
  }

  /**
   * Records one event of the case in a caller's transaction (board, dispatch, transfers), under the
   * case's row lock, numbered after the case's last event; undefined when the case is gone.
   */
  async function appendInTransaction<T extends CaseEvent['type']>(
    trx: Transaction<DB>,
    caseId: string,
    actorUserId: string,
    at: string,
    type: T,
    payload: CaseEventPayload<T>,
  ): Promise<RecordedCaseEvent | undefined> {
    const current = await repo.lockForWrite(trx, caseId);
    if (!current) return undefined;
    const origin = { caseId, seq: Number(current.version) + 1, actorUserId, createdAt: at, clientCreatedAt: null };
    const event = newCaseEvent(origin, type, payload);
    await repo.appendEvent(trx, event);
    await repo.finishWrite(trx, null); // the caller's transaction: its audit row written now
    return event;
  }

  /** A transfer step's `transfer` event, in the transfer's transaction. */
  const recordTransfer = (trx: Transaction<DB>, step: TransferStep, payload: CaseEventPayload<'transfer'>) =>
    appendInTransaction(trx, step.caseId, step.actorUserId, step.at, 'transfer', payload);
  const caseNumbers = deps.caseNumbers ?? randomCaseNumber;

  function replay<T>(stored: { request_hash: string; response: string }, ctx: WriteContext): CaseAnswer<T> {
    if (stored.request_hash !== ctx.requestHash) {
      throw conflict(serverMessages.idempotencyKeyReused, 'idempotency_key_reused');
    }
    return { body: JSON.parse(stored.response) as T, replayed: true, events: [] };
  }

  async function knownAnswer<T>(principal: Principal, ctx: WriteContext): Promise<CaseAnswer<T> | null> {
    const stored = await repo.findIdempotencyKey(principal.userId, ctx.idempotencyKey);
    return stored ? replay<T>(stored, ctx) : null;
  }

  /** After a failed transaction: the duplicate that won the race, if that is what it was. */
  async function raceWinner<T>(error: unknown, principal: Principal, ctx: WriteContext): Promise<CaseAnswer<T> | null> {
    if (error instanceof Replay) return replay<T>(error.stored, ctx);
    if (isUniqueViolation(error)) return knownAnswer<T>(principal, ctx);
    return null;
  }

  /**
   * PostgreSQL, the case read before the write (decision 0054): `apply` runs against a write that only
   * records — its one event and the changes before it; reaching for the transaction (`trx`) or a second
   * event stops it — and a write of one event and nothing after it is made as ONE statement on its own
   * (`repo.writeAlone`): two round trips in all with the read, where a transaction takes five. Null when the
   * write needs the transaction (no event, more than one, a read or a row of another table under the row
   * lock): changeCase then runs `apply` again in one. StaleCase when the case moved since it was read.
   */
  async function writeAlone<T>(
    principal: Principal,
    ctx: WriteContext,
    row: CaseRow,
    expected: RowVersion,
    apply: Apply<T>,
    status: number,
  ): Promise<CaseAnswer<T> | null> {
    const now = clock.now().toISOString();
    const recorded: { event: RecordedCaseEvent; changes: Updateable<CasesTable> }[] = [];
    let pending: Updateable<CasesTable> = {};
    const write: CaseWrite = {
      get trx(): Transaction<DB> {
        throw new NeedsTransaction();
      },
      current: row,
      now,
      emit: async (type, payload) => {
        if (recorded.length > 0) throw new NeedsTransaction();
        const origin = { caseId: row.id, seq: Number(row.version) + 1, createdAt: now };
        const actor = { actorUserId: principal.userId, clientCreatedAt: ctx.clientCreatedAt };
        const event = newCaseEvent({ ...origin, ...actor }, type, payload);
        recorded.push({ event, changes: pending });
        pending = {};
        return event;
      },
      update: async (changes) => {
        pending = { ...pending, ...changes };
      },
    };
    let body: T;
    try {
      body = await apply(write);
    } catch (error) {
      if (error instanceof NeedsTransaction) return null;
      throw error;
    }
    const [only] = recorded;
    if (!only || Object.keys(pending).length > 0) return null;
    const key = {
      user_id: principal.userId,
      key: ctx.idempotencyKey,
      case_id: row.id,
      request_hash: ctx.requestHash,
      status,
      response: toJson(body),
      created_at: now,
    };
    if (!(await repo.writeAlone(only.event, only.changes, expected, key))) throw new StaleCase();
    return { body, replayed: false, events: [only.event] };
  }

  /**
   * The one path every change of an existing case takes (see the header). `prepare` runs outside the
   * transaction with the case as read for the access check and answers the part that runs inside it.
   */
  async function changeCase<T>(
    principal: Principal,
    ctx: WriteContext,
    caseId: string,
    prepare: (row: CaseRow) => Promise<Apply<T>>,
    options: {
      allowClosed?: boolean;
      status?: number;
      /**
       * Who may make this write: the case's owner (the default). A module that has authorised the
       * principal itself (a call's recording by the ED staff member who answered the call) passes a
       * check of its own; it gets the case as read with the user's role and answers the row or throws.
       */
      authorise?: (found: CaseWithRole | null) => CaseRow;
    } = {},
    locked = false,
  ): Promise<CaseAnswer<T>> {
    // The key, the case and the access in one read; a known key is answered whatever the access says.
    const { stored, found } = await repo.findForWrite(caseId, principal.userId, ctx.idempotencyKey);
    if (stored) return replay<T>(stored, ctx);
    const row = (options.authorise ?? ownedCase)(found);
    const apply = await prepare(row);
    // PostgreSQL: the write goes on from the row read above, checked rather than locked and read again
    // (one round trip fewer, decision 0050); SQLite's writer reads it again at no round trip's cost.
    const unlocked = locked ? null : (found?.rowVersion ?? null);
    try {
      if (unlocked !== null && repo.writesAlone) {
        if (row.arrived_at !== null && !options.allowClosed) throw conflict(serverMessages.caseClosed, 'case_closed');
        const alone = await writeAlone(principal, ctx, row, unlocked, apply, options.status ?? 200);
        if (alone) {
          committed();
          return alone;
        }
      }
      const answer = await repo.transaction(async (trx) => {
        const current = unlocked !== null ? row : await repo.lockForWrite(trx, caseId);
        if (!current) throw notFound('Case');
        // No second key lookup here: a duplicate that raced this one past the check above fails on
        // the key's unique index at the insert below, its changes roll back, and raceWinner answers it.
        if (current.arrived_at !== null && !options.allowClosed)
          throw conflict(serverMessages.caseClosed, 'case_closed');
        const now = clock.now().toISOString();
        const actor = { actorUserId: principal.userId, clientCreatedAt: ctx.clientCreatedAt };
        const { write, events, finish } = caseWrite(trx, current, now, actor, unlocked);
        const body = await apply(write);
        await finish();
        await repo.finishWrite(trx, {
          user_id: principal.userId,
          key: ctx.idempotencyKey,
          case_id: caseId,
          request_hash: ctx.requestHash,
          status: options.status ?? 200,
          response: toJson(body),
          created_at: now,
        });
        return { body, replayed: false, events };
      });
      committed();
      return answer;
    } catch (error) {
      // The unlocked row was not the case as it is now (or a refusal may rest on it): again, locked.
      if (
        unlocked !== null &&
        (error instanceof StaleCase || isEventNumberViolation(error) || error instanceof AppError)
      )
        return changeCase(principal, ctx, caseId, prepare, options, true);
      const winner = await raceWinner<T>(error, principal, ctx);
      if (winner) return winner;
      throw error;
    }
  }

  const change = (caseId: string, event: RecordedCaseEvent | null): CaseChangeResponse => ({
    id: caseId,
    event: event && eventRef(event),
  });

  /** What the case's media events say: its uploads and their counts per type (§3). */
  async function mediaOf(caseId: string): Promise<Pick<Case, 'uploads' | 'mediaCounts'>> {
    const mediaCounts = { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 };
    const uploads: Case['uploads'] = [];
    for (const event of await repo.mediaEvents(caseId)) {
      const type = event.type as keyof typeof mediaCounts;
      const { uploadId } = parseJson<{ uploadId?: string }>(event.payload, {});
      if (!uploadId || !(type in mediaCounts)) continue;
      mediaCounts[type] += 1;
      uploads.push({ id: uploadId, type });
    }
    return { uploads, mediaCounts };
  }

  async function requireSet(row: CaseRow): Promise<PublishedSet> {
    const set = await complaints.setById(row.complaint_set_id);
    if (!set) throw new AppError(409, 'conflict', `The case's complaint set ${row.complaint_set_id} no longer exists.`);
    return set;
  }

  return {
    /**
     * For other modules that record a change of the case (media): the same path as every case write —
     * idempotency key, access check, row lock, closed-case rule, events and key in one transaction.
     */
    write: changeCase,

    /** For other modules before they take a write's bytes: the case, if the user may change it now. */
    async writable(principal: Principal, caseId: string): Promise<CaseRow> {
      const row = await access.requireOwner(principal, caseId);
      if (row.arrived_at !== null) throw conflict(serverMessages.caseClosed, 'case_closed');
      return row;
    },

    /** For reads by other modules (media files): the case's readers (case-access.ts). */
    async readable(principal: Principal, caseId: string): Promise<CaseRow> {
      return (await access.requireReader(principal, caseId)).row;
    },

    mediaOf,

    /** The complaint set the case was started with (the protocol assistant's case context). */
    async complaintSetOf(caseId: string): Promise<PublishedSet | null> {
      const row = await repo.findById(caseId);
      return row ? complaints.setById(row.complaint_set_id) : null;
    },

    /** Who may do what with a case (case-access.ts), for the other modules. */
    access,

    /**
     * Marks the case seen by its destination hospital, once: under the case's row lock, so two staff
     * tapping at once make one event; a case already acknowledged by this hospital answers that one.
     * The caller (the board) has checked that the user is ED staff of that hospital.
     */
    async acknowledge(input: AcknowledgeInput): Promise<AcknowledgeOutcome> {
      const outcome = await repo.transaction(async (trx): Promise<AcknowledgeOutcome> => {
        const current = await repo.lockForWrite(trx, input.caseId);
        if (!current || current.destination_hospital_id !== input.hospitalId) return { kind: 'gone' };
        const seen = seenByDestination(current);
        if (seen) return { kind: 'already', byName: seen.byName, at: seen.at };
        if (current.arrived_at !== null) return { kind: 'closed' };
        const at = clock.now().toISOString();
        await appendInTransaction(trx, input.caseId, input.userId, at, 'acknowledged', {
          hospitalId: input.hospitalId,
          byName: input.byName,
          hospitalName: input.hospitalName,
        });
        await repo.updateCase(trx, input.caseId, {
          acknowledged_hospital_id: input.hospitalId,
          acknowledged_by: input.userId,
          acknowledged_by_name: input.byName,
          acknowledged_at: at,
        });
        return { kind: 'acknowledged', at };
      });
      if (outcome.kind === 'acknowledged') committed();
      return outcome;
    },

    /** A call of the case ended (calls module): its `call` event, as `recordEnded`. */
    recordCallEnded(
      caseId: string,
      actorUserId: string,
      end: (trx: Transaction<DB>, now: string) => Promise<CaseEventPayload<'call'> | null>,
    ): Promise<RecordedCaseEvent | null> {
      return recordEnded('call', caseId, actorUserId, end);
    },

    /** A live consult of the case ended (consults module): its `liveconsult` event, as `recordEnded`. */
    recordConsultEnded(
      caseId: string,
      actorUserId: string,
      end: (trx: Transaction<DB>, now: string) => Promise<CaseEventPayload<'liveconsult'> | null>,
    ): Promise<RecordedCaseEvent | null> {
      return recordEnded('liveconsult', caseId, actorUserId, end);
    },

    /**
     * For modules that record what the case's destination does with it (team activation): `apply` runs
     * under the case's row lock in one transaction with the events it emits (actor: `actorUserId`, null
     * for the server's own scheduler) and whatever it writes itself; the outbox announces them after the
     * commit. Null when the case is gone or no longer coming to `hospitalId`.
     */
    recordAtDestination<T>(
      input: { caseId: string; hospitalId: string; actorUserId: string | null },
      apply: (trx: Transaction<DB>, current: CaseRow, emit: Emit, now: string) => Promise<T>,
    ): Promise<T | null> {
      return lockedWrite(input.caseId, input.actorUserId, async ({ trx, current, emit, now }) =>
        current.destination_hospital_id === input.hospitalId ? apply(trx, current, emit, now) : null,
      );
    },

    /**
     * Starts the case of a claimed dispatch in the claim's transaction (dispatch module): the crew owns
     * it, the dispatching hospital is its destination, the dispatch's complaint its complaint. The
     * caller calls `committed` after its commit.
     */
    async startClaimed(trx: Transaction<DB>, claim: ClaimedCase): Promise<void> {
      const now = clock.now().toISOString();
      await repo.insertCase(
        trx,
        {
          id: claim.caseId,
          case_number: claim.caseNumber,
          placeholder_id: null,
          type: 'hospitalED',
          owned_by: claim.ownerId,
          agency_id: claim.agencyId,
          truck_id: claim.truckId,
          complaint_set_id: claim.complaintSet.id,
          complaint_set_name: claim.complaintSet.name,
          complaint_id: claim.complaintId,
          destination_hospital_id: claim.hospitalId,
          age_period: DEFAULT_AGE_PERIOD,
          patient_info: '[]',
          began_at: now,
          created_at: now,
          updated_at: now,
          version: 0,
        },
        claim.ownerId,
      );
      let seq = 0;
      const append = async <T extends CaseEvent['type']>(type: T, payload: CaseEventPayload<T>) => {
        seq += 1;
        const origin = { caseId: claim.caseId, seq, actorUserId: claim.ownerId, createdAt: now, clientCreatedAt: null };
        await repo.appendEvent(trx, newCaseEvent(origin, type, payload));
      };
      await append('caseStarted', {
        caseNumber: claim.caseNumber,
        emsAgency: claim.agencyId,
        truck: claim.truckId,
        beganAt: now,
        placeholderId: null,
        complaintSet: claim.complaintSet.id,
        dispatchId: claim.dispatchId,
        dispatchedBy: claim.hospitalId,
      });
      await append('hospital', { destinationHospital: claim.hospitalId, previous: null, nonTwiage: false, at: now });
      if (claim.complaintId) await append('complaint', { complaint: claim.complaintId, previous: null, at: now });
      await repo.finishWrite(trx, null); // the claim's transaction: the audit rows written now
    },

    /** A caller's transaction that recorded case events committed: the outbox relays them now. */
    committed,

    /**
     * For the ED's writes of an inbound case (arrival module): the row locked, events recorded as the
     * user, committed and relayed like every case write. `apply` decides from the locked row; it may
     * record nothing (a repeat), and answers what the caller returns.
     */
    hospitalWrite<T>(caseId: string, actorUserId: string, apply: (write: CaseWrite) => Promise<T>): Promise<T | null> {
      return lockedWrite(caseId, actorUserId, apply);
    },

    /**
     * For modules whose changes the case's followers see but that are not case events (a chat message,
     * a receipt, a finished conversion): the `case:{id}` message goes into the case outbox in the
     * caller's transaction, and is relayed after the commit (call `committed` then).
     */
    announce(trx: Transaction<DB>, caseId: string, message: CaseChannelMessage): Promise<void> {
      return enqueueCaseMessage(trx, caseId, message, clock.now().toISOString());
    },

    /**
     * The steps of a case transfer (transfers module), each in the transfer's transaction: the case's
     * access list changes and a `transfer` event records it. The caller calls `committed` after its commit.
     */
    transfer: {
      /** The case is closed or gone (its row locked for the rest of the transaction). */
      lockIsClosed: (trx: Transaction<DB>, caseId: string) => repo.lockIsClosed(trx, caseId),
      findWithAccess: (caseId: string, userId: string) => repo.findWithAccess(caseId, userId),

      /** Accepted: the receiving crew reads the case (to load it) until the transfer is done or ends. */
      async admitReceiver(trx: Transaction<DB>, step: TransferStep, receiver: string, role: string): Promise<void> {
        await repo.grantAccess(trx, step.caseId, receiver, role, step.at);
        await recordTransfer(trx, step, { action: 'receiverAdmitted', transferId: step.transferId, receiver });
      },

      /** The transfer ended before it was done: the receiving crew no longer reads the case. */
      async dismissReceiver(trx: Transaction<DB>, step: TransferStep, receiver: string, role: string): Promise<void> {
        await repo.revokeAccess(trx, step.caseId, receiver, role);
        await recordTransfer(trx, step, { action: 'receiverDismissed', transferId: step.transferId, receiver });
      },

      /** Done: the receiver owns the case; the sender leaves its access list. */
      async handOver(trx: Transaction<DB>, step: TransferStep, from: string, to: string): Promise<void> {
        await repo.handOver(trx, step.caseId, from, to, step.at);
        await recordTransfer(trx, step, { action: 'handedOver', transferId: step.transferId, from, to });
      },
    },

    /** POST /v4/twiageCases: a member (or admin) of the team starts a case on one of its trucks. */
    async create(
      principal: Principal,
      ctx: WriteContext,
      placeholderId: string | null,
      body: CreateCaseBody,
    ): Promise<CaseAnswer<CreateCaseResponse>> {
      const known = await knownAnswer<CreateCaseResponse>(principal, ctx);
      if (known) return known;
      const agency = await agencies.agencyForCase(body.emsAgency);
      if (!agency) throw notFound('Team');
      if (!isOnTeam(principal, agency.id)) throw forbidden();
      if (!agency.truckIds.includes(body.truck))
        throw badRequest(`body.truck: ${body.truck} is not a truck of this team.`);
      const set = await complaints.newestSet(agency.complaintSetName);
      if (!set)
        throw new AppError(409, 'conflict', `The team's complaint set "${agency.complaintSetName}" is not published.`);

      for (let draw = 0; draw < CASE_NUMBER_DRAWS; draw++) {
        try {
          const created = await repo.transaction(async (trx) => {
            const stored = await repo.findIdempotencyKey(principal.userId, ctx.idempotencyKey, trx);
            if (stored) throw new Replay(stored);
            const now = clock.now().toISOString();
            const id = randomUUID();
            const answer: CreateCaseResponse = {
              id,
              caseNumber: caseNumbers(),
              channelId: `case:${id}`,
              ownedBy: principal.userId,
              createdAt: now,
            };
            await repo.insertCase(
              trx,
              {
                id,
                case_number: answer.caseNumber,
                placeholder_id: placeholderId,
                type: 'emsED',
                owned_by: principal.userId,
                agency_id: agency.id,
                truck_id: body.truck,
                complaint_set_id: set.id,
                complaint_set_name: set.name,
                age_period: DEFAULT_AGE_PERIOD,
                patient_info: '[]',
                began_at: new Date(body.beganAt).toISOString(),
                created_at: now,
                updated_at: now,
                version: 0,
              },
              principal.userId,
            );
            const origin = {
              caseId: id,
              seq: 1,
              actorUserId: principal.userId,
              createdAt: now,
              clientCreatedAt: ctx.clientCreatedAt,
            };
            const started = newCaseEvent(origin, 'caseStarted', {
              caseNumber: answer.caseNumber,
              emsAgency: agency.id,
              truck: body.truck,
              beganAt: body.beganAt,
              placeholderId,
              complaintSet: set.id,
            });
            await repo.appendEvent(trx, started);
            await repo.finishWrite(trx, {
              user_id: principal.userId,
              key: ctx.idempotencyKey,
              case_id: id,
              request_hash: ctx.requestHash,
              status: 201,
              response: toJson(answer),
              created_at: now,
            });
            return { body: answer, replayed: false, events: [started] };
          });
          committed();
          return created;
        } catch (error) {
          const winner = await raceWinner<CreateCaseResponse>(error, principal, ctx);
          if (winner) return winner;
          if (isCaseNumberViolation(error)) continue; // drawn before: draw again
          throw error;
        }
      }
      throw new Error(`no free case number after ${CASE_NUMBER_DRAWS} draws`);
    },

    /** GET /v4/twiageCases/{id}: the case as it is now. */
    async get(principal: Principal, caseId: string): Promise<Case> {
      const row = await access.requireCrew(principal, caseId);
      const seen = seenByDestination(row);
      const [tags, values, media, seenBy] = await Promise.all([
        repo.tags(caseId),
        repo.tagValues(caseId),
        mediaOf(caseId),
        seen ? hospitals.hospitalsByIds([seen.hospitalId]) : [],
      ]);
      return {
        id: row.id,
        caseNumber: row.case_number,
        channelId: `case:${row.id}`,
        ownedBy: row.owned_by,
        type: row.type,
        createdAt: row.created_at,
        closedAt: row.closed_at,
        arrivedAt: row.arrived_at,
        destinationHospital: row.destination_hospital_id ? { id: row.destination_hospital_id } : null,
        emsAgency: row.agency_id,
        truck: row.truck_id,
        complaint: row.complaint_id,
        complaintSet: row.complaint_set_name,
        tags: tags.map((t) => ({
          id: t.tag_id,
          values: values
            .filter((v) => v.tag_id === t.tag_id)
            .map((v) => ({ fields: parseJson<TagFieldValue[]>(v.fields, []), updatedAt: v.updated_at })),
        })),
        age: row.age === null ? null : Number(row.age),
        agePeriod: Number(row.age_period) as 1 | 2 | 3,
        gender: row.gender,
        uploads: media.uploads,
        monitorIntegration:
          row.monitor_id !== null
            ? { monitorId: row.monitor_id, patientId: row.monitor_patient_id ?? '', type: row.monitor_type ?? '' }
            : null,
        patientInfo: parseJson<PatientInfoEntry[]>(row.patient_info, []),
        mediaCounts: media.mediaCounts,
        lastLocation: lastLocationOf(row),
        acknowledgedBy: seen?.byName ?? null,
        acknowledgedByHospital: seenBy[0]?.name ?? null,
        acknowledgedAt: seen?.at ?? null,
        ...arrivalFields(row),
      };
    },

    /** PATCH /v4/twiageCases/{id}: exactly one change (the contract's schema has checked that). */
    patch(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      body: PatchCaseBody,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async (row): Promise<Apply<CaseChangeResponse>> => {
        if (body.complaint !== undefined) {
          const complaintId = body.complaint;
          const set = await requireSet(row);
          if (!set.complaints.has(complaintId)) {
            throw badRequest(`body.complaint: ${complaintId} is not a complaint of the case's complaint set.`);
          }
          return async ({ current, emit, now, update }) => {
            // §4: choosing the complaint the case already has is ignored — no event. Tags of an
            // earlier complaint stay recorded (nothing a crew entered is dropped).
            if (current.complaint_id === complaintId) return change(caseId, null);
            await update({ complaint_id: complaintId });
            return change(
              caseId,
              await emit('complaint', { complaint: complaintId, previous: current.complaint_id, at: now }),
            );
          };
        }
        if (body.destinationHospital !== undefined) {
          const hospitalId = body.destinationHospital;
          if (!(await agencies.hospitalIds(row.agency_id)).includes(hospitalId)) {
            throw badRequest(`body.destinationHospital: ${hospitalId} is not one of the team's hospitals.`);
          }
          // A hospital not on the platform (nonTwiage) may be the destination, but no case data goes to
          // it: the console and real-time delivery must leave such a hospital out (recorded in the event).
          const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
          const nonTwiage = hospital?.nonTwiage ?? false;
          return async ({ trx, current, emit, now, update }) => {
            if (current.destination_hospital_id === hospitalId) return change(caseId, null);
            const previous = current.destination_hospital_id;
            // A new destination: its arrival, hand-over and any diversion start afresh (issue 15).
            await update({ destination_hospital_id: hospitalId, ...diversionCleared });
            if (previous !== null) {
              await repo.insertDestinationChange(trx, {
                id: randomUUID(),
                case_id: caseId,
                from_hospital_id: previous,
                to_hospital_id: hospitalId,
                to_hospital_name: hospital?.name ?? hospitalId,
                reason: current.diverted_hospital_id === previous ? current.diversion_reason : null,
                at: now,
              });
            }
            return change(
              caseId,
              await emit('hospital', {
                destinationHospital: hospitalId,
                previous,
                nonTwiage,
                ...(hospital ? { destinationName: hospital.name } : {}),
              }),
            );
          };
        }
        if (body.gender !== undefined) {
          const gender = body.gender;
          return async ({ emit, update }) => {
            await update({ gender });
            return change(caseId, await emit('gender', { gender }));
          };
        }
        if (body.age !== undefined) {
          const age = body.age;
          const agePeriod = body.agePeriod;
          return async ({ current, emit, update }) => {
            const period = agePeriod ?? AgePeriod.parse(Number(current.age_period));
            await update({ age, age_period: period });
            return change(caseId, await emit('age', { age, agePeriod: period }));
          };
        }
        if (body.arrivedAt !== undefined) {
          // A live transfer would otherwise hand over a closed case (docs/decisions 0012): refuse, not cancel.
          if (await deps.transfers?.inProgress(caseId)) throw conflict(CLOSE_DURING_TRANSFER_MESSAGE);
          const arrivedAt = new Date(body.arrivedAt).toISOString();
          return async ({ current, emit, now, update }) => {
            await update({ arrived_at: arrivedAt, closed_at: now });
            const closed = await emit('arrived', { arrivedAt });
            // The crew's close is an arrival at the destination too, unless one was marked already.
            const hospitalId = current.destination_hospital_id;
            if (hospitalId !== null && current.destination_arrived_at === null) {
              await update(arrivalChanges({ at: arrivedAt, source: 'crew', byName: null }));
              await emit('arrivedAtDestination', { hospitalId, at: arrivedAt, source: 'crew', byName: null });
            }
            return change(caseId, closed);
          };
        }
        throw badRequest('body: nothing to change.'); // unreachable: the schema requires one change
      });
    },

    /** POST /v4/twiageCases/{id}/locationUpdates: an event, and the case's last position. */
    location(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      body: LocationUpdateBody,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async (row) => {
        // The destination's geofence, read before the transaction (another module's read), only while
        // an arrival is still to come.
        const destination = row.destination_hospital_id;
        const fence =
          destination !== null && row.destination_arrived_at === null && deps.arrival
            ? await deps.arrival.fenceOf(destination)
            : null;
        return async ({ current, emit, now, update }) => {
          const recordedAt = body.recordedAt ? new Date(body.recordedAt).toISOString() : now;
          const payload = {
            latitude: body.latitude,
            longitude: body.longitude,
            accuracy: body.accuracy ?? null,
            recordedAt,
          };
          const moved = { last_latitude: body.latitude, last_longitude: body.longitude, last_location_at: recordedAt };
          // Under the row lock: the destination and arrival as they are now, not as read above.
          const hospitalId = current.destination_hospital_id;
          if (!fence || hospitalId === null || hospitalId !== destination || current.destination_arrived_at !== null) {
            await update(moved);
            return change(caseId, await emit('location', payload));
          }
          const before = { enteredAt: current.geofence_entered_at };
          // A fix stamped in the future (a wrong device clock) counts as now: no dwell can be run ahead.
          const fixAt = recordedAt > now ? now : recordedAt;
          const step = stepFence(fence, before, { ...payload, recordedAt: fixAt });
          const after = stateAfter(step, before);
          if (step.kind !== 'arrived') {
            await update({ ...moved, geofence_entered_at: after.enteredAt });
            return change(caseId, await emit('location', payload));
          }
          await update({
            ...moved,
            geofence_entered_at: after.enteredAt,
            ...arrivalChanges({ at: step.at, source: 'geofence', byName: null }),
          });
          const reported = await emit('location', payload);
          await emit('arrivedAtDestination', { hospitalId, at: step.at, source: 'geofence', byName: null });
          return change(caseId, reported);
        };
      });
    },

    /**
     * POST /v4/twiageCases/{id}/tags?tagId=: the tag must be of the case's chosen complaint. Selecting a
     * tag whose group already has another selected tag is refused with 409: the swap of §4 is the
     * client's two calls (remove the old, then add the new), so a second tag of a group means the client
     * and server disagree about the case, which we surface rather than silently resolve. Selecting a
     * tag that is already selected changes nothing (no event).
     */
    addTag(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      tagId: string,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async (row) => {
        const set = await requireSet(row);
        if (!findTag(set.complaints, tagId)) throw badRequest(`Tag ${tagId} is not in the case's complaint set.`);
        return async ({ trx, current, emit, now }) => {
          const { tag, complaint } = requireTagOfComplaint(set.complaints, current.complaint_id, tagId);
          const selected = await repo.tags(caseId, trx);
          if (selected.some((t) => t.tag_id === tagId)) return change(caseId, null);
          const rival = tag.groupIdentifier
            ? selected.find((t) => t.complaint_id === complaint.id && t.group_identifier === tag.groupIdentifier)
            : undefined;
          if (rival) {
            const rivalName = findTag(set.complaints, rival.tag_id)?.tag.name ?? rival.tag_id;
            throw conflict(
              `Tag "${tag.name}" is in the same group as the selected tag "${rivalName}": remove that one first.`,
            );
          }
          const event = await emit('tag', { tagId, action: 'added', complaint: complaint.id });
          await repo.insertTag(trx, {
            case_id: caseId,
            tag_id: tagId,
            complaint_id: complaint.id,
            group_identifier: tag.groupIdentifier,
            added_at: now,
            seq: event.seq,
          });
          return change(caseId, event);
        };
      });
    },

    /** DELETE /v4/twiageCases/{id}/tags?tagId=: unselect; a tag that is not selected changes nothing. */
    removeTag(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      tagId: string,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async () => async ({ trx, emit }) => {
        const selected = await repo.tags(caseId, trx);
        if (!selected.some((t) => t.tag_id === tagId)) return change(caseId, null);
        await repo.deleteTag(trx, caseId, tagId);
        return change(caseId, await emit('tag', { tagId, action: 'removed' }));
      });
    },

    /**
     * PATCH /v4/twiageCases/{id}/tags/{tagId}/values: values of a selected data-enabled tag. Each save is
     * kept (the crew app shows the history with times); the newest is the current one.
     */
    tagValues(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      tagId: string,
      body: TagValuesBody,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async (row) => {
        const set = await requireSet(row);
        const found = findTag(set.complaints, tagId);
        if (!found) throw badRequest(`Tag ${tagId} is not in the case's complaint set.`);
        const fields = checkTagValues(found.tag, body.fields);
        return async ({ trx, emit, now }) => {
          const selected = await repo.tags(caseId, trx);
          if (!selected.some((t) => t.tag_id === tagId)) {
            throw conflict(`Tag "${found.tag.name}" is not selected on this case: select it before giving its values.`);
          }
          const event = await emit('dataEnabledTag', { tagId, fields });
          await repo.insertTagValues(trx, {
            id: event.id,
            case_id: caseId,
            tag_id: tagId,
            fields: toJson(fields),
            updated_at: now,
            seq: event.seq,
          });
          return change(caseId, event);
        };
      });
    },

    /** PUT /v4/twiageCases/{id}/dynamicForms/{formId}: the patient info, replaced as a whole. */
    patientInfo(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      formId: string,
      body: DynamicFormBody,
    ): Promise<CaseAnswer<CaseChangeResponse>> {
      return changeCase(principal, ctx, caseId, async (row) => {
        const form = (await agencies.patientInfoForms(row.agency_id)).find((f) => f.id === formId);
        if (!form) throw badRequest(`${formId} is not a patient info form of the case's team.`);
        const fields = checkPatientInfo(form.fields, body.fields);
        return async ({ emit, update }) => {
          await update({ patient_info: toJson(fields) });
          return change(caseId, await emit('patientInfo', { formId, fields }));
        };
      });
    },

    /** PATCH /monitor-integration/{type}/{caseId}: one of the team's monitors, of that type. */
    monitor(
      principal: Principal,
      ctx: WriteContext,
      type: string,
      caseId: string,
      body: { monitorId: string; patientId: string },
    ): Promise<CaseAnswer<{ monitorIntegration: { monitorId: string; patientId: string; type: string } }>> {
      return changeCase(principal, ctx, caseId, async (row) => {
        const monitor = (await agencies.monitors(row.agency_id)).find((m) => m.id === body.monitorId);
        if (!monitor) throw badRequest(`body.monitorId: ${body.monitorId} is not one of the team's monitors.`);
        if (monitor.type !== type) throw badRequest(`Monitor ${monitor.id} is a ${monitor.type} monitor, not ${type}.`);
        const monitorIntegration = { monitorId: monitor.id, patientId: body.patientId, type: monitor.type };
        return async ({ emit, update }) => {
          await update({
            monitor_id: monitor.id,
            monitor_patient_id: body.patientId,
            monitor_type: monitor.type,
          });
          await emit('monitor', monitorIntegration);
          return { monitorIntegration };
        };
      });
    },

    /** POST /v4/twiageCases/{id}/case-feedback: the owner's rating; allowed after the case is closed. */
    feedback(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      body: CaseFeedbackBody,
    ): Promise<CaseAnswer<{ id: string; event?: EventRef }>> {
      return changeCase(
        principal,
        ctx,
        caseId,
        async (row) => {
          if (row.owned_by !== principal.userId) throw forbidden();
          return async ({ trx, emit, now }) => {
            const event = await emit('caseFeedback', { rating: body.rating, notes: body.notes, type: body.type });
            await repo.insertFeedback(trx, {
              id: event.id,
              case_id: caseId,
              user_id: principal.userId,
              rating: body.rating,
              notes: body.notes,
              type: body.type,
              created_at: now,
            });
            // `event` is for the announcement (the hospital's console lists feedback live); the wire
            // answer is `{ id }` (the response schema drops the rest).
            return { id: event.id, event: eventRef(event) };
          };
        },
        { allowClosed: true, status: 201 },
      );
    },
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
