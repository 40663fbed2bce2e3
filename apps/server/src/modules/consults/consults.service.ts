/**
 * Live video consults (issue 12 item 2; contract: consults.ts): a room per case with its destination
 * ED, when the destination has `liveConsult` on. The server keeps who is in the room, relays WebRTC
 * signals between named participants and records each consult as one `liveconsult` case event.
 *
 * Who may do what (the case-access policy decides who reads the case):
 * - see the room, join it (starting it when none runs): the case's readers — its crews and the ED
 *   staff of its destination (a specialist on a phone signs in as ED staff of that hospital);
 * - presence, signal, leave: the participant itself (the user who joined as it);
 * - the `consult:{id}` channel and GET: the case's readers.
 *
 * Spec §4: a consult and a voice call never run at once; nor a consult and a case transfer. A room
 * holds at most CONSULT_MAX_PARTICIPANTS (a full mesh); a participant not heard from for
 * CONSULT_PRESENCE_TIMEOUT_MS has left (found when anyone next meets the room), and the last one out
 * ends the consult.
 */
import { randomUUID } from 'node:crypto';
import {
  CONSULT_EVENTS,
  CONSULT_JOINS_MAX,
  CONSULT_MAX_PARTICIPANTS,
  CONSULT_PRESENCE_TIMEOUT_MS,
  FEATURE,
  callMessages,
  consultMessages,
  messages,
  type Consult,
  type ConsultRoomResponse,
  type ConsultSignalBody,
  type Hospital,
  type JoinConsultResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { CaseRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { CasesService } from '../cases/cases.service.js';
import { iceConfigFor, type IceSettings } from '../calls/ice.js';
import { publishMessage } from '../realtime/channel-messages.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { ConsultRow, ConsultsRepository, ParticipantRow } from './consults.repository.js';

export interface ConsultsServiceDeps {
  repo: ConsultsRepository;
  clock: Clock;
  access: CaseAccess;
  cases: Pick<CasesService, 'recordConsultEnded'>;
  publisher: RealtimePublisher;
  ice: IceSettings;
  hospitalsByIds(ids: readonly string[]): Promise<Hospital[]>;
  findCase(caseId: string): Promise<CaseRow | null>;
  displayName(userId: string): Promise<string | null>;
  /** A voice call of the case rings or runs (calls module). */
  callInProgress(caseId: string): Promise<boolean>;
  /** A case transfer of the case is live (transfers module). */
  transferInProgress(caseId: string): Promise<boolean>;
}

const offersConsults = (hospital: Hospital) =>
  !hospital.nonTwiage && hospital.supportedFeatures.some((f) => f.name === FEATURE.liveConsult && f.enabled);

function toConsult(row: ConsultRow, caseNumber: string, live: ParticipantRow[]): Consult {
  return {
    id: row.id,
    caseId: row.case_id,
    caseNumber,
    hospitalId: row.hospital_id,
    state: row.state,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    participants: live.map((p) => ({
      id: p.id,
      userId: p.user_id,
      name: p.name,
      side: p.side,
      joinedAt: p.joined_at,
      leftAt: p.left_at,
    })),
  };
}

export function createConsultsService(deps: ConsultsServiceDeps) {
  const { repo, clock, access } = deps;
  const now = () => clock.now().toISOString();

  async function view(row: ConsultRow): Promise<Consult> {
    const caseNumber = (await deps.findCase(row.case_id))?.case_number ?? '';
    return toConsult(row, caseNumber, row.state === 'live' ? await repo.participants(row.id, true) : []);
  }

  /** To the console (the case detail's Join) and to the case's channel (the crew, when not in the room). */
  async function announce(consult: Consult) {
    const message = { type: CONSULT_EVENTS.updated, data: { consult } } as const;
    await Promise.all([
      publishMessage(deps.publisher, 'hospital', consult.hospitalId, message),
      publishMessage(deps.publisher, 'case', consult.caseId, message),
    ]);
  }

  /** Ends the consult (once) with its case event. */
  async function end(row: ConsultRow, actorUserId: string): Promise<Consult> {
    let ended = false;
    await deps.cases.recordConsultEnded(row.case_id, actorUserId, async (trx, at) => {
      if (!(await repo.end(trx, row.id, at))) return null;
      ended = true;
      const all = await repo.participants(row.id, false, trx);
      return {
        consultId: row.id,
        hospitalId: row.hospital_id,
        startedAt: row.started_at,
        endedAt: at,
        durationSeconds: Math.max(0, Math.round((Date.parse(at) - Date.parse(row.started_at)) / 1000)),
        participants: all.slice(0, CONSULT_JOINS_MAX).map((p) => ({
          name: p.name,
          side: p.side,
          joinedAt: p.joined_at,
          leftAt: p.left_at ?? at,
        })),
      };
    });
    const consult = await view((await repo.findById(row.id)) ?? row);
    if (ended) {
      await publishMessage(deps.publisher, 'consult', row.id, { type: CONSULT_EVENTS.ended, data: { consult } });
      await announce(consult);
    }
    return consult;
  }

  /** A participant is out of the room: announced; the last one out ends the consult. */
  async function afterLeaving(row: ConsultRow, participantId: string, actorUserId: string): Promise<Consult> {
    const remaining = await repo.participants(row.id, true);
    if (remaining.length === 0) return end(row, actorUserId);
    const consult = await view(row);
    await publishMessage(deps.publisher, 'consult', row.id, {
      type: CONSULT_EVENTS.left,
      data: { consult, participantId },
    });
    await announce(consult);
    return consult;
  }

  /** The consult with participants not heard from in time taken out (and the consult ended if empty). */
  async function current(row: ConsultRow): Promise<ConsultRow> {
    if (row.state !== 'live') return row;
    const cutoff = clock.now().getTime() - CONSULT_PRESENCE_TIMEOUT_MS;
    const stale = (await repo.participants(row.id, true)).filter((p) => Date.parse(p.last_seen_at) < cutoff);
    for (const p of stale) {
      if (await repo.leave(p.id, p.last_seen_at)) await afterLeaving(row, p.id, p.user_id);
    }
    return (await repo.findById(row.id)) ?? row;
  }

  async function requireConsult(consultId: string): Promise<ConsultRow> {
    const row = await repo.findById(consultId);
    if (!row) throw notFound('Consult');
    return current(row);
  }

  /** The principal's own participant of the consult, still in the room. */
  async function requireParticipant(principal: Principal, consultId: string, participantId: string) {
    const row = await requireConsult(consultId);
    const participant = await repo.findParticipant(participantId);
    if (!participant || participant.consult_id !== row.id || participant.user_id !== principal.userId) {
      await access.requireReader(principal, row.case_id);
      throw forbidden(consultMessages.notAParticipant);
    }
    if (row.state === 'ended') throw conflict(consultMessages.over);
    if (participant.left_at !== null) throw conflict(consultMessages.notAParticipant);
    return { row, participant };
  }

  async function destination(row: CaseRow): Promise<Hospital | null> {
    if (row.destination_hospital_id === null) return null;
    const [hospital] = await deps.hospitalsByIds([row.destination_hospital_id]);
    return hospital ?? null;
  }

  async function liveConsult(caseId: string): Promise<ConsultRow | null> {
    const row = await repo.findLive(caseId);
    if (!row) return null;
    const after = await current(row);
    return after.state === 'live' ? after : null;
  }

  return {
    /** GET /notification/twiage-cases/{id}/room: the case's room, if one runs; readers of the case. */
    async room(principal: Principal, caseId: string): Promise<ConsultRoomResponse> {
      const { row } = await access.requireReader(principal, caseId);
      const hospital = await destination(row);
      const live = await liveConsult(caseId);
      const consult = live ? await view(live) : null;
      return { roomId: consult?.id ?? null, consult, available: hospital !== null && offersConsults(hospital) };
    },

    /** POST /v4/consults: joins the case's room, starting it when none runs. */
    async join(principal: Principal, caseId: string): Promise<JoinConsultResponse> {
      const { row, side } = await access.requireReader(principal, caseId);
      if (row.arrived_at !== null) throw conflict(consultMessages.caseClosed, 'case_closed');
      const hospital = await destination(row);
      if (!hospital) throw conflict(messages.selectHospitalForLiveConsult);
      if (!offersConsults(hospital)) throw conflict(messages.liveConsultNotSupported(hospital.name));
      if (await deps.callInProgress(caseId)) throw conflict(callMessages.endCallToStartConsult);
      if (await deps.transferInProgress(caseId)) throw conflict(consultMessages.transferInProgress);

      let consult = await liveConsult(caseId);
      if (!consult) {
        const started: ConsultRow = {
          id: randomUUID(),
          case_id: caseId,
          hospital_id: hospital.id,
          state: 'live',
          started_at: now(),
          ended_at: null,
          joins: 0,
        };
        try {
          await repo.insert(started);
          consult = started;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Someone else started it a moment before: join theirs.
          consult = await repo.findLive(caseId);
          if (!consult) throw conflict(consultMessages.over);
        }
      }
      const at = now();
      const participant: Omit<ParticipantRow, 'seq'> = {
        id: randomUUID(),
        consult_id: consult.id,
        user_id: principal.userId,
        name: (await deps.displayName(principal.userId)) ?? principal.username,
        side,
        joined_at: at,
        last_seen_at: at,
        left_at: null,
      };
      const outcome = await repo.join(participant, CONSULT_MAX_PARTICIPANTS, CONSULT_JOINS_MAX);
      if (outcome === 'full') throw conflict(consultMessages.full);
      if (outcome === 'tooManyJoins') throw conflict(consultMessages.tooManyJoins);
      if (outcome === 'over') throw conflict(consultMessages.over);
      const joined = toConsult(consult, row.case_number, await repo.participants(consult.id, true));
      const self = joined.participants.find((p) => p.id === participant.id);
      if (self) {
        await publishMessage(deps.publisher, 'consult', consult.id, {
          type: CONSULT_EVENTS.joined,
          data: { consult: joined, participant: self },
        });
      }
      await announce(joined);
      return {
        consult: joined,
        participantId: participant.id,
        ice: iceConfigFor(deps.ice, principal.userId, clock.now()),
      };
    },

    /** POST /v4/consults/{id}/presence: the participant is still there; the room as it is. */
    async presence(principal: Principal, consultId: string, participantId: string): Promise<{ consult: Consult }> {
      const { row } = await requireParticipant(principal, consultId, participantId);
      await repo.touch(participantId, now());
      return { consult: await view(row) };
    },

    /** POST /v4/consults/{id}/signal: an offer, answer or candidates to one other participant. */
    async signal(principal: Principal, consultId: string, body: ConsultSignalBody): Promise<void> {
      await requireParticipant(principal, consultId, body.from);
      const to = await repo.findParticipant(body.to);
      if (!to || to.consult_id !== consultId || to.left_at !== null)
        throw conflict('The participant this signal is for has left the consult.');
      await publishMessage(deps.publisher, 'consult', consultId, {
        type: CONSULT_EVENTS.signal,
        data: {
          consultId,
          from: body.from,
          to: body.to,
          ...(body.description ? { description: body.description } : {}),
          ...(body.candidates ? { candidates: body.candidates } : {}),
        },
      });
    },

    /** POST /v4/consults/{id}/leave: hang up; idempotent; the last one out ends the consult. */
    async leave(principal: Principal, consultId: string, participantId: string): Promise<{ consult: Consult }> {
      const row = await requireConsult(consultId);
      const participant = await repo.findParticipant(participantId);
      if (!participant || participant.consult_id !== row.id || participant.user_id !== principal.userId) {
        await access.requireReader(principal, row.case_id);
        throw forbidden(consultMessages.notAParticipant);
      }
      if (!(await repo.leave(participantId, now()))) return { consult: await view(row) };
      return { consult: await afterLeaving(row, participantId, principal.userId) };
    },

    /** GET /v4/consults/{id}: readers of its case. */
    async get(principal: Principal, consultId: string): Promise<{ consult: Consult }> {
      const row = await requireConsult(consultId);
      await access.requireReader(principal, row.case_id);
      return { consult: await view(row) };
    },

    /** The `consult:{id}` channel: the readers of the consult's case. */
    async mayRead(principal: Principal, consultId: string): Promise<boolean> {
      const row = await repo.findById(consultId);
      return row !== null && access.mayRead(principal, row.case_id);
    },

    /** For the calls and transfers modules: a consult of the case runs (spec §4). */
    async liveOnCase(caseId: string): Promise<boolean> {
      return (await liveConsult(caseId)) !== null;
    },
  };
}

export type ConsultsService = ReturnType<typeof createConsultsService>;
