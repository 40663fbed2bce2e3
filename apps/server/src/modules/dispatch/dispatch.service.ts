/**
 * Dispatched cases (issue 5 item 6; docs/decisions/0014-dispatched-cases.md).
 *
 * Dispatch: ED staff of a hospital (or an organisation admin) order a case from an agency delivering to
 * it. One transaction writes the dispatch (its number, the hospital as destination, the agency, the
 * complaint if chosen, the notes, no crew) and the emsDispatch broadcast carrying its number, with the
 * request's Idempotency-Key: a retry answers the first dispatch and sends nothing again. After the
 * commit the broadcast goes out live and the hospital's consoles hear of the dispatch.
 *
 * Claim: a crew of that agency loads it from the Message Center on its selected team and truck. One
 * transaction marks the dispatch claimed and starts the case (type hospitalED, owner the crew, the
 * dispatch's number, destination and complaint). Anything else — an unknown number, one claimed by
 * another crew, one dispatched to another agency, one older than the board's history window — is the
 * same 404 'Case not available for transfer.' (the crew app shows §8's Message Center warning), so
 * the answer says nothing about numbers that are not the crew's; unknown and foreign numbers count
 * against the same guess limit as transfer codes. A retry by the crew that claimed it answers its case.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  BOARD_HISTORY_HOURS,
  dispatchMessages,
  channelName,
  HOSPITAL_EVENTS,
  serverMessages,
  transferMessages,
  type BroadcastMessage,
  type Case,
  type ClaimDispatchBody,
  type CreateDispatchBody,
  type CreateDispatchResponse,
  type DispatchedCase,
  type DispatchesResponse,
  type DispatchOptionsResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, toFlag, toJson } from '../../db/json.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOnTeam, type Principal } from '../auth/principal.js';
import type { BroadcastsRepository, StoredBroadcastKey } from '../broadcasts/broadcasts.repository.js';
import type { BroadcastsService } from '../broadcasts/broadcasts.service.js';
import type { Answer, CasesService, WriteContext } from '../cases/cases.service.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { GuessLimiter } from '../transfers/guess-limit.js';
import { randomDispatchNumber } from './dispatch-number.js';
import type { DispatchRepository, DispatchRow } from './dispatch.repository.js';

const NUMBER_DRAWS = 8;
/** The most dispatches the console lists (a hospital dispatches a handful a shift). */
const LIST_LIMIT = 100;
/** A dispatch nobody claimed in this long is no longer offered (the board's history window). */
export const DISPATCH_CLAIM_WINDOW_MS = BOARD_HISTORY_HOURS * 3_600_000;

type CreateBody = z.output<typeof CreateDispatchBody>;

export interface DispatchServiceDeps {
  repo: DispatchRepository;
  clock: Clock;
  publisher: RealtimePublisher;
  broadcasts: Pick<BroadcastsService, 'requireSender' | 'announce' | 'senderName' | 'recipients'>;
  broadcastStore: Pick<BroadcastsRepository, 'findKey' | 'write' | 'message'>;
  agencies: {
    agencyForCase(agencyId: string): Promise<{ id: string; complaintSetName: string; truckIds: string[] } | null>;
    agencyIdsDeliveringTo(hospitalId: string): Promise<string[]>;
  };
  complaints: {
    newestSet(name: string): Promise<PublishedSet | null>;
    setById(id: string): Promise<PublishedSet | null>;
  };
  /**
   * The cases module: a claim starts the case in the claim's transaction (`startClaimed`), tells it
   * after the commit (`committed`), and answers the case as its crew reads it (`get`).
   */
  cases: Pick<CasesService, 'startClaimed' | 'committed' | 'get'>;
  guesses: GuessLimiter;
  numbers?: () => string;
}

/** Thrown inside the claim's transaction when another crew got there first: rolls it back. */
class AlreadyClaimed extends Error {}

export function createDispatchService(deps: DispatchServiceDeps) {
  const { repo, clock, publisher, broadcasts, broadcastStore, agencies, complaints, cases, guesses } = deps;
  const drawNumber = deps.numbers ?? randomDispatchNumber;
  const notAvailable = () => new AppError(404, 'not_found', transferMessages.notAvailable);

  function replay(stored: StoredBroadcastKey, ctx: WriteContext): Answer<CreateDispatchResponse> {
    if (stored.request_hash !== ctx.requestHash) {
      throw conflict(serverMessages.idempotencyKeyReused, 'idempotency_key_reused');
    }
    const body = JSON.parse(stored.response) as CreateDispatchResponse | BroadcastMessage;
    // The key of an ordinary broadcast send has another URL, so another hash: never here.
    if (!('dispatch' in body)) throw conflict(serverMessages.idempotencyKeyReused, 'idempotency_key_reused');
    return { body, replayed: true };
  }

  const complaintOf = (set: PublishedSet | null, id: string | null): DispatchedCase['complaint'] => {
    const complaint = id ? set?.complaints.get(id) : undefined;
    return complaint
      ? { id: complaint.id, name: complaint.name, color: complaint.color, priority: complaint.priority }
      : null;
  };

  async function views(rows: DispatchRow[]): Promise<DispatchedCase[]> {
    const setIds = [...new Set(rows.map((r) => r.complaint_set_id))];
    const [names, trucks, sets] = await Promise.all([
      repo.agencyNames([...new Set(rows.map((r) => r.agency_id))]),
      repo.caseTrucks(rows.flatMap((r) => (r.case_id ? [r.case_id] : []))),
      Promise.all(setIds.map(async (id) => [id, await complaints.setById(id)] as const)),
    ]);
    const setById = new Map(sets);
    return rows.map((row) => {
      const agencyName = names.get(row.agency_id) ?? row.agency_id;
      return {
        _id: row.id,
        caseNumber: row.case_number,
        hospitalId: row.hospital_id,
        agency: { _id: row.agency_id, name: agencyName },
        complaint: complaintOf(setById.get(row.complaint_set_id) ?? null, row.complaint_id),
        notes: row.notes,
        urgent: fromFlag(row.urgent),
        status: row.case_id ? 'claimed' : row.cancelled_at ? 'cancelled' : 'awaitingCrew',
        dispatchedAt: row.created_at,
        dispatchedByName: row.created_by_name,
        claim:
          row.case_id && row.claimed_at
            ? { caseId: row.case_id, truckName: trucks.get(row.case_id) ?? '', agencyName, at: row.claimed_at }
            : null,
        cancelled: row.cancelled_at ? { at: row.cancelled_at, byName: row.cancelled_by_name ?? '' } : null,
      };
    });
  }

  const announceDispatch = (hospitalId: string, dispatchId: string) =>
    publisher.publish(channelName('hospital', hospitalId), {
      type: HOSPITAL_EVENTS.dispatchUpdated,
      data: { dispatchId },
    });

  const claimable = (row: DispatchRow) =>
    !row.cancelled_at && clock.now().getTime() - new Date(row.created_at).getTime() < DISPATCH_CLAIM_WINDOW_MS;

  return {
    /** GET /v4/hospitals/{id}/dispatch-options: the composer's agencies and their complaints. */
    async options(principal: Principal, hospitalId: string): Promise<DispatchOptionsResponse> {
      const { agencies: recipients } = await broadcasts.recipients(principal, hospitalId);
      return {
        agencies: await Promise.all(
          recipients.map(async (agency) => {
            const found = await agencies.agencyForCase(agency._id);
            const set = found ? await complaints.newestSet(found.complaintSetName) : null;
            return {
              _id: agency._id,
              name: agency.name,
              complaints: [...(set?.complaints.values() ?? [])].map((c) => ({
                id: c.id,
                name: c.name,
                priority: c.priority,
              })),
            };
          }),
        ),
      };
    },

    /** POST /v4/hospitals/{id}/dispatches */
    async create(
      principal: Principal,
      ctx: WriteContext,
      hospitalId: string,
      body: CreateBody,
    ): Promise<Answer<CreateDispatchResponse>> {
      // A known key is answered before the checks, as broadcasts and case writes do.
      const known = await broadcastStore.findKey(principal.userId, ctx.idempotencyKey);
      if (known) return replay(known, ctx);
      const hospital = await broadcasts.requireSender(principal, hospitalId);
      if (!(await agencies.agencyIdsDeliveringTo(hospitalId)).includes(body.emsAgencyId)) {
        throw badRequest(`body.emsAgencyId: not an agency that delivers to this hospital: ${body.emsAgencyId}`);
      }
      const agency = await agencies.agencyForCase(body.emsAgencyId);
      if (!agency) throw notFound('Agency');
      const set = await complaints.newestSet(agency.complaintSetName);
      if (!set) throw conflict(`The agency's complaint set "${agency.complaintSetName}" is not published.`);
      if (body.complaintId !== null && !set.complaints.has(body.complaintId)) {
        throw badRequest(`body.complaintId: ${body.complaintId} is not a complaint of the agency's complaint set.`);
      }
      const [agencyName] = [...(await repo.agencyNames([agency.id])).values()];
      const sentByName = await broadcasts.senderName(principal);

      for (let draw = 0; draw < NUMBER_DRAWS; draw += 1) {
        const now = clock.now().toISOString();
        const dispatchId = randomUUID();
        const broadcastId = randomUUID();
        const caseNumber = drawNumber();
        const complaint = complaintOf(set, body.complaintId);
        const content = [
          `Case ${caseNumber} dispatched to you: ${complaint?.name ?? 'complaint not given'}.`,
          body.notes,
        ]
          .filter((part) => part !== '')
          .join(' ');
        const broadcast: BroadcastMessage = {
          _id: broadcastId,
          timestamp: now,
          content,
          urgent: body.urgent,
          type: 'emsDispatch',
          caseNumber,
          senderOrganizationName: hospital.name,
          emsAgencies: [agency.id],
        };
        const answer: CreateDispatchResponse = {
          dispatch: {
            _id: dispatchId,
            caseNumber,
            hospitalId,
            agency: { _id: agency.id, name: agencyName ?? agency.id },
            complaint,
            notes: body.notes,
            urgent: body.urgent,
            status: 'awaitingCrew',
            dispatchedAt: now,
            dispatchedByName: sentByName,
            claim: null,
          },
          broadcast,
        };
        try {
          await repo.transaction(async (trx) => {
            await broadcastStore.write(
              trx,
              {
                id: broadcastId,
                content,
                urgent: toFlag(body.urgent),
                type: 'emsDispatch',
                case_number: caseNumber,
                sender_organization_name: hospital.name,
                created_at: now,
                hospital_id: hospitalId,
                sent_by: principal.userId,
                sent_by_name: sentByName,
              },
              [agency.id],
              {
                user_id: principal.userId,
                key: ctx.idempotencyKey,
                broadcast_id: broadcastId,
                request_hash: ctx.requestHash,
                response: toJson(answer),
                created_at: now,
              },
            );
            await repo.insert(trx, {
              id: dispatchId,
              case_number: caseNumber,
              hospital_id: hospitalId,
              agency_id: agency.id,
              complaint_set_id: set.id,
              complaint_set_name: set.name,
              complaint_id: body.complaintId,
              notes: body.notes,
              urgent: toFlag(body.urgent),
              broadcast_id: broadcastId,
              created_by: principal.userId,
              created_by_name: sentByName,
              created_at: now,
              case_id: null,
              claimed_by: null,
              claimed_at: null,
            });
          });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // A duplicate that raced this one past the lookup above committed first: its answer.
          const winner = await broadcastStore.findKey(principal.userId, ctx.idempotencyKey);
          if (winner) return replay(winner, ctx);
          continue; // the number was taken: draw again
        }
        await broadcasts.announce(broadcast, hospitalId);
        await announceDispatch(hospitalId, dispatchId);
        return { body: answer, replayed: false };
      }
      throw new Error(`no free dispatch number after ${NUMBER_DRAWS} draws`);
    },

    /** GET /v4/hospitals/{id}/dispatches */
    async list(principal: Principal, hospitalId: string): Promise<DispatchesResponse> {
      await broadcasts.requireSender(principal, hospitalId);
      const since = new Date(clock.now().getTime() - DISPATCH_CLAIM_WINDOW_MS).toISOString();
      return { data: await views(await repo.forHospital(hospitalId, since, LIST_LIMIT)) };
    },

    /**
     * POST /v4/hospitals/{id}/dispatches/{dispatchId}/cancel: only while no crew has claimed it (the
     * claim and the cancel each update the row only if the other has not, so one of them wins). The
     * emsDispatch broadcast is marked and sent again, so each crew's Message Center shows it cancelled.
     */
    async cancel(principal: Principal, hospitalId: string, dispatchId: string): Promise<DispatchedCase> {
      await broadcasts.requireSender(principal, hospitalId);
      const row = await repo.findById(dispatchId);
      if (row?.hospital_id !== hospitalId) throw notFound('Dispatch');
      if (row.case_id !== null) throw conflict(dispatchMessages.alreadyClaimed);
      if (!row.cancelled_at) {
        const byName = await broadcasts.senderName(principal);
        const now = clock.now().toISOString();
        const done = await repo.transaction((trx) => repo.cancel(trx, row, byName, now));
        if (!done) {
          const current = await repo.findById(dispatchId);
          if (current?.case_id) throw conflict(dispatchMessages.alreadyClaimed);
        } else {
          const message = await broadcastStore.message(row.broadcast_id);
          if (message) await broadcasts.announce(message, hospitalId);
          await announceDispatch(hospitalId, dispatchId);
        }
      }
      const [view] = await views([(await repo.findById(dispatchId)) ?? row]);
      if (!view) throw notFound('Dispatch');
      return view;
    },

    /** POST /v4/dispatched-cases/{caseNumber}/claim: answers the case the crew now owns. */
    async claim(principal: Principal, rawNumber: string, body: ClaimDispatchBody): Promise<Case> {
      if (!principal.roles.includes('crew')) throw forbidden(transferMessages.notARequester);
      if (!isOnTeam(principal, body.emsAgencyId)) throw forbidden();
      const agency = await agencies.agencyForCase(body.emsAgencyId);
      if (!agency) throw notFound('Team');
      if (!agency.truckIds.includes(body.truckId)) throw badRequest('body.truckId: not a truck of this team');

      await guesses.refuseGuessing(principal.userId);
      const row = await repo.findByNumber(rawNumber.trim().toUpperCase());
      if (!row || row.agency_id !== body.emsAgencyId) {
        await guesses.recordMiss(principal.userId);
        throw notAvailable();
      }
      if (row.case_id !== null) {
        // A retry of ours (the answer was lost): the case as it is now.
        if (row.claimed_by === principal.userId) return cases.get(principal, row.case_id);
        throw notAvailable();
      }
      if (!claimable(row)) throw notAvailable();

      const caseId = randomUUID();
      const now = clock.now().toISOString();
      try {
        await repo.transaction(async (trx) => {
          if (!(await repo.claim(trx, row.id, caseId, principal.userId, now))) throw new AlreadyClaimed();
          await cases.startClaimed(trx, {
            caseId,
            caseNumber: row.case_number,
            ownerId: principal.userId,
            agencyId: agency.id,
            truckId: body.truckId,
            complaintSet: { id: row.complaint_set_id, name: row.complaint_set_name },
            complaintId: row.complaint_id,
            hospitalId: row.hospital_id,
            dispatchId: row.id,
          });
        });
      } catch (error) {
        if (!(error instanceof AlreadyClaimed)) throw error;
        // Another crew claimed it first; a racing retry of ours finds its own case.
        const current = await repo.findById(row.id);
        if (current?.case_id && current.claimed_by === principal.userId) {
          return cases.get(principal, current.case_id);
        }
        throw notAvailable();
      }
      cases.committed();
      await announceDispatch(row.hospital_id, row.id);
      return cases.get(principal, caseId);
    },
  };
}

export type DispatchService = ReturnType<typeof createDispatchService>;
