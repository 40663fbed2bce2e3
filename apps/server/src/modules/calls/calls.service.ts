/**
 * Voice calls between a crew and its case's destination ED (issue 12; contract: calls.ts).
 *
 * Who may do what (the case-access policy decides who reads the case):
 * - start: a crew on the case's access list, the case open, its destination on the platform, no live
 *   transfer of the case (spec §4: a call and a transfer never run at once), no other live call;
 * - answer / reject: ED staff of the call's hospital while it rings — the first answer wins;
 * - signal / hang up: the caller and the one who answered;
 * - read (GET, the `call:{id}` channel): the case's readers.
 *
 * A call rings at most CALL_RING_TIMEOUT_MS (+ grace); a call found ringing past that is ended as
 * missed whenever it is met, so a caller's vanished browser cannot block transfers for long.
 * Every call's end is one `call` case event, recorded by the cases service in the transaction that
 * ends the call's row (so the row and the event cannot disagree), then announced by the case outbox.
 */
import { randomUUID } from 'node:crypto';
import {
  CALL_ALIVE_TIMEOUT_MS,
  CALL_EVENTS,
  CALL_RING_TIMEOUT_MS,
  FEATURE,
  RINGING_CALLS_MAX,
  callMessages,
  mediaMessages,
  consultMessages,
  type BoardCase,
  type Call,
  type CallOutcome,
  type CallResponse,
  type CallRing,
  type CallSignalBody,
  type EndCallBody,
  type Hospital,
  type RingingCallsResponse,
  type VoipTokenResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { CaseRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { CasesService } from '../cases/cases.service.js';
import { publishMessage } from '../realtime/channel-messages.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { CallRow, CallsRepository } from './calls.repository.js';
import { iceConfigFor, type IceSettings } from './ice.js';

/** After the caller's own ring timeout, a little longer before the server calls it missed. */
const RING_GRACE_MS = 15_000;

export interface CallsServiceDeps {
  repo: CallsRepository;
  clock: Clock;
  access: CaseAccess;
  cases: Pick<CasesService, 'recordCallEnded'>;
  publisher: RealtimePublisher;
  ice: IceSettings;
  hospitalsByIds(ids: readonly string[]): Promise<Hospital[]>;
  findCase(caseId: string): Promise<CaseRow | null>;
  displayName(userId: string): Promise<string | null>;
  boardCard(row: CaseRow): Promise<BoardCase | null>;
  /** Whether a case transfer of the case is live (transfers module). */
  transferInProgress(caseId: string): Promise<boolean>;
  /** Whether a live video consult of the case runs (consults module; spec §4: a call waits for it). */
  consultInProgress?(caseId: string): Promise<boolean>;
}

const hasFeature = (hospital: Hospital, name: string) =>
  hospital.supportedFeatures.some((f) => f.name === name && f.enabled);

function toCall(row: CallRow, caseNumber: string): Call {
  return {
    id: row.id,
    caseId: row.case_id,
    caseNumber,
    hospitalId: row.hospital_id,
    state: row.state,
    caller: { userId: row.caller_user_id, name: row.caller_name },
    answeredBy:
      row.answered_by_user_id !== null ? { userId: row.answered_by_user_id, name: row.answered_by_name ?? '' } : null,
    startedAt: row.started_at,
    answeredAt: row.answered_at,
    endedAt: row.ended_at,
    outcome: (row.outcome as CallOutcome | null) ?? null,
    recording: row.recording === 1,
  };
}

/** What a party's reason means for the call as it is now. */
function outcomeOf(state: CallRow['state'], reason: EndCallBody['reason']): CallOutcome {
  if (reason === 'reject') return 'rejected';
  if (reason === 'failed') return 'failed';
  if (reason === 'missed') return 'missed';
  if (state === 'ringing') return reason === 'lost' ? 'failed' : 'cancelled';
  return reason === 'lost' ? 'lost' : 'completed';
}

export function createCallsService(deps: CallsServiceDeps) {
  const { repo, clock, access } = deps;
  const now = () => clock.now().toISOString();

  async function nameOf(principal: Principal): Promise<string> {
    return (await deps.displayName(principal.userId)) ?? principal.username;
  }

  async function caseNumberOf(caseId: string): Promise<string> {
    return (await deps.findCase(caseId))?.case_number ?? '';
  }

  async function publishChange(call: Call, type: typeof CALL_EVENTS.answered | typeof CALL_EVENTS.ended) {
    await Promise.all([
      publishMessage(deps.publisher, 'hospital', call.hospitalId, { type, data: { call } }),
      publishMessage(deps.publisher, 'call', call.id, { type, data: { call } }),
    ]);
  }

  /** Ends the call (once) with its case event; answers the call as it is after. */
  async function end(row: CallRow, actorUserId: string, outcome: CallOutcome): Promise<Call> {
    const caseNumber = await caseNumberOf(row.case_id);
    let ended: CallRow | null = null;
    await deps.cases.recordCallEnded(row.case_id, actorUserId, async (trx, at) => {
      if (!(await repo.end(trx, row.id, outcome, at))) return null;
      ended = { ...row, state: 'ended', outcome, ended_at: at };
      const connectedMs = row.answered_at ? Date.parse(at) - Date.parse(row.answered_at) : 0;
      return {
        callId: row.id,
        hospitalId: row.hospital_id,
        callerName: row.caller_name,
        answeredByName: row.answered_by_name,
        startedAt: row.started_at,
        answeredAt: row.answered_at,
        endedAt: at,
        durationSeconds: Math.max(0, Math.round(connectedMs / 1000)),
        outcome,
        recorded: row.recording === 1 && row.answered_at !== null,
      };
    });
    if (!ended) return toCall((await repo.findById(row.id)) ?? row, caseNumber);
    const call = toCall(ended, caseNumber);
    await publishChange(call, CALL_EVENTS.ended);
    return call;
  }

  /** A connected call neither party has kept alive: both browsers are gone. */
  const abandoned = (row: CallRow, nowMs: number): boolean =>
    row.state === 'connected' &&
    nowMs - Date.parse(row.alive_at ?? row.answered_at ?? row.started_at) >= CALL_ALIVE_TIMEOUT_MS;

  /** The row, with a ring nobody answered in time ended as missed and an abandoned call as lost. */
  async function current(row: CallRow): Promise<CallRow> {
    const nowMs = clock.now().getTime();
    if (abandoned(row, nowMs)) {
      await end(row, row.caller_user_id, 'lost');
      return (await repo.findById(row.id)) ?? row;
    }
    if (row.state !== 'ringing') return row;
    if (nowMs - Date.parse(row.started_at) < CALL_RING_TIMEOUT_MS + RING_GRACE_MS) return row;
    await end(row, row.caller_user_id, 'missed');
    return (await repo.findById(row.id)) ?? row;
  }

  async function requireCall(callId: string): Promise<CallRow> {
    const row = await repo.findById(callId);
    if (!row) throw notFound('Call');
    return current(row);
  }

  /** The case's live calls after expiring stale rings. */
  async function liveCalls(caseId: string): Promise<CallRow[]> {
    const rows = await Promise.all((await repo.live(caseId)).map(current));
    return rows.filter((r) => r.state !== 'ended');
  }

  /** The destination on the platform, or null (none chosen, or a hospital not on the platform). */
  async function destination(row: CaseRow): Promise<Hospital | null> {
    if (row.destination_hospital_id === null) return null;
    const [hospital] = await deps.hospitalsByIds([row.destination_hospital_id]);
    return hospital ?? null;
  }

  const ice = (principal: Principal) => iceConfigFor(deps.ice, principal.userId, clock.now());

  return {
    /** GET /voip/twiage-cases/{id}/token: ICE servers and the department; readers of the case. */
    async token(principal: Principal, caseId: string): Promise<VoipTokenResponse> {
      const { row } = await access.requireReader(principal, caseId);
      const hospital = await destination(row);
      const department =
        hospital && !hospital.nonTwiage
          ? { name: `${hospital.name} ED`, allowsToRecord: hasFeature(hospital, FEATURE.allowsToRecord) }
          : null;
      return { ...ice(principal), department, edPhoneNumbers: hospital?.edPhoneNumbers ?? [] };
    },

    /** POST /v4/calls: the crew calls the destination ED; every console there rings. */
    async start(principal: Principal, caseId: string): Promise<CallResponse> {
      const row = await access.requireCrew(principal, caseId);
      if (row.arrived_at !== null) throw conflict('The case is closed: the patient has arrived.', 'case_closed');
      const hospital = await destination(row);
      if (!hospital) throw conflict(callMessages.noDestination);
      if (hospital.nonTwiage) throw conflict(callMessages.notOnPlatform);
      if (await deps.transferInProgress(caseId)) throw conflict(callMessages.transferInProgress);
      if (await deps.consultInProgress?.(caseId)) throw conflict(consultMessages.consultInProgress);
      if ((await liveCalls(caseId)).length > 0) throw conflict(callMessages.callInProgress);

      const inserted: CallRow = {
        id: randomUUID(),
        case_id: caseId,
        hospital_id: hospital.id,
        state: 'ringing',
        caller_user_id: principal.userId,
        caller_name: await nameOf(principal),
        answered_by_user_id: null,
        answered_by_name: null,
        started_at: now(),
        answered_at: null,
        ended_at: null,
        outcome: null,
        recording: hasFeature(hospital, FEATURE.allowsToRecord) ? 1 : 0,
        alive_at: null,
      };
      try {
        await repo.insert(inserted);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(callMessages.callInProgress);
        throw error;
      }
      const call = toCall(inserted, row.case_number);
      const card = await deps.boardCard(row);
      await publishMessage(deps.publisher, 'hospital', hospital.id, { type: CALL_EVENTS.ring, data: { call, card } });
      return { call, ice: ice(principal) };
    },

    /**
     * GET /v4/hospitals/{id}/calls/ringing: a console that opens (or reconnects) while a call rings
     * missed its `call.ring`; it asks for the rings of now. The hospital's ED staff only, and only the
     * cases each may read (a case sent elsewhere since it rang is not shown).
     */
    async ringing(principal: Principal, hospitalId: string): Promise<RingingCallsResponse> {
      await access.requireHospitalStaff(principal, hospitalId);
      const rows = await Promise.all((await repo.ringingAt(hospitalId, RINGING_CALLS_MAX)).map(current));
      const rings: CallRing[] = [];
      for (const row of rows) {
        if (row.state !== 'ringing' || !(await access.mayRead(principal, row.case_id))) continue;
        const caseRow = await deps.findCase(row.case_id);
        if (caseRow) rings.push({ call: toCall(row, caseRow.case_number), card: await deps.boardCard(caseRow) });
      }
      return { rings };
    },

    /** POST /v4/calls/{id}/answer: ED staff of the call's hospital; the first answer takes it. */
    async answer(principal: Principal, callId: string): Promise<CallResponse> {
      const row = await requireCall(callId);
      const { side } = await access.requireReader(principal, row.case_id);
      if (side !== 'hospital' || !principal.edHospitalIds.includes(row.hospital_id)) throw forbidden();
      const caseNumber = await caseNumberOf(row.case_id);
      if (row.state === 'connected' && row.answered_by_user_id !== principal.userId)
        throw conflict(callMessages.answeredElsewhere(row.answered_by_name ?? ''));
      if (row.state === 'ended') throw conflict(callMessages.callOver);
      if (row.state === 'ringing') {
        const name = await nameOf(principal);
        if (!(await repo.answer(callId, principal.userId, name, now()))) {
          const after = await repo.findById(callId);
          throw conflict(
            after?.state === 'connected'
              ? callMessages.answeredElsewhere(after.answered_by_name ?? '')
              : callMessages.callOver,
          );
        }
        const call = toCall((await repo.findById(callId))!, caseNumber);
        await publishChange(call, CALL_EVENTS.answered);
        return { call, ice: ice(principal) };
      }
      return { call: toCall(row, caseNumber), ice: ice(principal) };
    },

    /** POST /v4/calls/{id}/signal: relays an offer, answer or candidates to the other party. */
    async signal(principal: Principal, callId: string, body: CallSignalBody): Promise<void> {
      const row = await requireCall(callId);
      const isCaller = row.caller_user_id === principal.userId;
      const isAnswerer = row.answered_by_user_id === principal.userId;
      if (!isCaller && !isAnswerer) {
        await access.requireReader(principal, row.case_id);
        throw forbidden(callMessages.notAParty);
      }
      if (row.state === 'ended') throw conflict(callMessages.callOver);
      await publishMessage(deps.publisher, 'call', callId, {
        type: CALL_EVENTS.signal,
        data: {
          callId,
          from: principal.userId,
          ...(body.description ? { description: body.description } : {}),
          ...(body.candidates ? { candidates: body.candidates } : {}),
        },
      });
    },

    /** POST /v4/calls/{id}/end: hang up, cancel, reject, or report a failure; idempotent. */
    async end(principal: Principal, callId: string, reason: EndCallBody['reason']): Promise<{ call: Call }> {
      const row = await requireCall(callId);
      const isParty = row.caller_user_id === principal.userId || row.answered_by_user_id === principal.userId;
      const isEdStaff = principal.edHospitalIds.includes(row.hospital_id);
      // Rejecting a ringing call is for the ED's staff; everything else for the two parties.
      const allowed = reason === 'reject' ? isEdStaff && row.state === 'ringing' : isParty;
      if (!allowed) {
        await access.requireReader(principal, row.case_id);
        if (row.state === 'ended') return { call: toCall(row, await caseNumberOf(row.case_id)) };
        throw forbidden(callMessages.notAParty);
      }
      if (row.state === 'ended') return { call: toCall(row, await caseNumberOf(row.case_id)) };
      return { call: await end(row, principal.userId, outcomeOf(row.state, reason)) };
    },

    /** POST /v4/calls/{id}/alive: a party of the connected call is still in it. */
    async alive(principal: Principal, callId: string): Promise<void> {
      const row = await requireCall(callId);
      if (row.caller_user_id !== principal.userId && row.answered_by_user_id !== principal.userId) {
        await access.requireReader(principal, row.case_id);
        throw forbidden(callMessages.notAParty);
      }
      if (row.state === 'ended') throw conflict(callMessages.callOver);
      if (row.state === 'connected') await repo.alive(callId, now());
    },

    /**
     * Ends every connected call neither party has kept alive for CALL_ALIVE_TIMEOUT_MS and every ring
     * past its time (the server's sweep): each with its `call` case event, like a hang-up. Answers how
     * many it ended.
     */
    async sweep(): Promise<number> {
      const nowMs = clock.now().getTime();
      const stale = await repo.stale(
        new Date(nowMs - CALL_ALIVE_TIMEOUT_MS).toISOString(),
        new Date(nowMs - CALL_RING_TIMEOUT_MS - RING_GRACE_MS).toISOString(),
      );
      let ended = 0;
      for (const row of stale) if ((await current(row)).state === 'ended') ended += 1;
      return ended;
    },

    /**
     * For the media module, before a call recording's bytes are read and again in its write: only the
     * ED staff member who answered the call of this case uploads its recording, and only when the
     * call's department records calls.
     */
    async authoriseRecording(principal: Principal, caseId: string, callId: string): Promise<void> {
      const row = await repo.findById(callId);
      if (!row || row.case_id !== caseId) throw notFound('Call');
      if (!principal.edHospitalIds.includes(row.hospital_id) || row.answered_by_user_id !== principal.userId)
        throw forbidden(mediaMessages.recordingByAnswerer);
      if (row.answered_at === null) throw conflict(mediaMessages.callNotAnswered);
      if (row.recording !== 1) throw conflict(mediaMessages.callNotRecorded);
    },

    /** GET /v4/calls/{id}: readers of its case. */
    async get(principal: Principal, callId: string): Promise<{ call: Call }> {
      const row = await requireCall(callId);
      const { row: caseRow } = await access.requireReader(principal, row.case_id);
      return { call: toCall(row, caseRow.case_number) };
    },

    /** The `call:{id}` channel: the readers of the call's case. */
    async mayRead(principal: Principal, callId: string): Promise<boolean> {
      const row = await repo.findById(callId);
      return row !== null && access.mayRead(principal, row.case_id);
    },

    /** For the transfers module: a call of the case rings or runs (spec §4). */
    async liveOnCase(caseId: string): Promise<boolean> {
      return (await liveCalls(caseId)).length > 0;
    },
  };
}

export type CallsService = ReturnType<typeof createCallsService>;
