/**
 * Case transfer, server side (spec §4): one crew hands its open case to another crew, who identifies
 * it by a six-digit code read aloud. The sender opens a transfer and gets the code; the receiver
 * requests it with the code and its team and truck; the sender accepts (the receiver may now read the
 * case and loads it) or declines; the receiver marks it received; the sender acknowledges — done: the
 * case now belongs to the receiver, and the sender leaves its access list (it can no longer write it).
 * Every change is published on `transfer:{id}` as CASE_TRANSFER_UPDATED (both crews subscribe); a
 * request reaching a sender with no open socket is pushed.
 *
 * Codes are unique among live transfers and expire: a transfer must be done within
 * TRANSFER_LIFETIME_MS of being opened (docs/decisions/0012-case-transfer-codes-and-lifetime.md). Expiry happens
 * lazily whenever a transfer is read or changed, and by a sweep (`expireDue`) the app runs on a timer.
 *
 * Calls and transfers block each other (§4): `create` refuses while a call of the case rings or runs
 * ('Close call to start Case Transfer'), and the calls module refuses a call while a transfer is live.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Transaction, Updateable } from 'kysely';
import {
  callMessages,
  channelName,
  transferMessages,
  TRANSFER_CODE_LENGTH,
  TRANSFER_LIFETIME_MS,
  type CaseTransfer,
  type RequestTransferBody,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { CaseRow, CaseTransfersTable, DB } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOnTeam, type Principal } from '../auth/principal.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { TransferStep } from '../cases/cases.service.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import { createGuessLimiter, type GuessLimiter } from './guess-limit.js';
import {
  acceptsRequests,
  isLive,
  messagesFor,
  refusal,
  senderMayCancel,
  type TransferSide,
} from './transfer-states.js';
import type { TransferRow, TransfersRepository } from './transfers.repository.js';

/** The role a receiving crew holds on the case's access list between accept and done. */
export const RECEIVER_ACCESS_ROLE = 'transferee';
const CODE_DRAWS = 8;
/** Guess limits of codes (guess-limit.ts), shared with dispatched-case numbers. */
export { CODE_MISSES_PER_MINUTE } from './guess-limit.js';
const EXPIRY_SWEEP_BATCH = 100;

export interface TransfersServiceDeps {
  repo: TransfersRepository;
  clock: Clock;
  publisher: RealtimePublisher;
  /**
   * The cases service (the case's one writer): its transfer steps change the case's access list and
   * record a `transfer` case event in the transfer step's transaction; `committed` after the commit.
   */
  cases: {
    transfer: {
      lockIsClosed(trx: Transaction<DB>, caseId: string): Promise<boolean>;
      findWithAccess(id: string, userId: string): Promise<{ row: CaseRow; role: string | null } | null>;
      admitReceiver(trx: Transaction<DB>, step: TransferStep, receiver: string, role: string): Promise<void>;
      dismissReceiver(trx: Transaction<DB>, step: TransferStep, receiver: string, role: string): Promise<void>;
      handOver(trx: Transaction<DB>, step: TransferStep, from: string, to: string): Promise<void>;
    };
    committed(): void;
  };
  agencies: { agencyForCase(agencyId: string): Promise<{ id: string; truckIds: string[] } | null> };
  /** Spec §4: no transfer while a call of the case rings or runs (calls module). */
  calls?: { liveOnCase(caseId: string): Promise<boolean> };
  push: { transferRequested(transfer: CaseTransfer): void };
  codes?: () => string;
  /** The limiter of unknown codes; pass the one the dispatch claims use, so both count together. */
  guesses?: GuessLimiter;
}

export const randomTransferCode = (): string =>
  String(randomInt(0, 10 ** TRANSFER_CODE_LENGTH)).padStart(TRANSFER_CODE_LENGTH, '0');

export function toCaseTransfer(row: TransferRow): CaseTransfer {
  return {
    _id: row.id,
    caseId: row.case_id,
    caseTransferCode: row.code,
    status: row.status,
    pubnubChannel: channelName('transfer', row.id),
    request:
      row.request_status !== null && row.request_user_id && row.request_agency_id && row.request_truck_id
        ? {
            status: row.request_status,
            requestedBy: row.request_user_id,
            emsAgencyId: row.request_agency_id,
            truckId: row.request_truck_id,
          }
        : null,
    createdBy: row.created_by,
    ...messagesFor(row),
    emsAgency: row.ems_agency_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

/** The requesting crew of a transfer that has a request (every step after `request`). */
function requester(row: TransferRow): string {
  if (row.request_user_id === null) throw new Error(`transfer ${row.id} has no requester`);
  return row.request_user_id;
}

/** Clears the columns whose unique indexes make a code and a case "live". */
const ended = (changes: Updateable<CaseTransfersTable>): Updateable<CaseTransfersTable> => ({
  ...changes,
  live_code: null,
  live_case_id: null,
});

interface Transition {
  by: TransferSide;
  /** The change has already happened (a retry): answer the transfer as it is. */
  alreadyDone(row: TransferRow): boolean;
  allowed(row: TransferRow): boolean;
  changes(row: TransferRow, now: string): Updateable<CaseTransfersTable>;
  /** Other writes that commit with the change (the case's access list, through the cases service). */
  alongside?(trx: Transaction<DB>, row: TransferRow, step: TransferStep): Promise<void>;
  /** The change removes someone from the case's access list: its live subscribers are checked again. */
  revokesAccess?: boolean;
}

export function createTransfersService(deps: TransfersServiceDeps) {
  const { repo, clock, publisher, agencies, push } = deps;
  const cases = deps.cases.transfer;
  /** The step's own record in the case: which transfer, who, when. */
  const stepOf = (row: TransferRow, actorUserId: string, at: string): TransferStep => ({
    caseId: row.case_id,
    transferId: row.id,
    actorUserId,
    at,
  });
  const drawCode = deps.codes ?? randomTransferCode;
  const now = () => clock.now().toISOString();
  const { refuseGuessing, recordMiss } = deps.guesses ?? createGuessLimiter(clock);

  /** After a commit that took someone off the case's access list: their `case:` subscription ends. */
  const reauthorizeCase = (caseId: string) => publisher.reauthorize(channelName('case', caseId));

  async function publish(row: TransferRow): Promise<CaseTransfer> {
    const transfer = toCaseTransfer(row);
    await publisher.publish(channelName('transfer', row.id), { type: 'CASE_TRANSFER_UPDATED', data: transfer });
    return transfer;
  }

  /** Expires the transfer if its lifetime has run out (whoever notices first; the others see it done). */
  async function expireIfDue(row: TransferRow): Promise<TransferRow> {
    if (!isLive(row.status) || row.expires_at > now()) return row;
    const at = now();
    const revokes = row.request_user_id !== null && ['accepted', 'received'].includes(row.request_status ?? '');
    const changed = await repo.transaction(async (trx) => {
      const won = await repo.transition(trx, row, ended({ status: 'expired', updated_at: at }));
      // Nobody expired it: the step is recorded as the opening crew's (the transfer was theirs).
      if (won && revokes)
        await cases.dismissReceiver(trx, stepOf(row, row.created_by, at), requester(row), RECEIVER_ACCESS_ROLE);
      return won;
    });
    // Who lost access is checked before the case event that says so is announced.
    if (changed && revokes) await reauthorizeCase(row.case_id);
    if (changed && revokes) deps.cases.committed();
    const current = (await repo.findById(row.id)) ?? row;
    if (changed) await publish(current);
    return current;
  }

  function sideOf(principal: Principal, row: TransferRow): TransferSide | null {
    if (row.created_by === principal.userId) return 'sender';
    if (row.request_user_id === principal.userId) return 'receiver';
    return null;
  }

  async function requireParty(principal: Principal, id: string): Promise<{ row: TransferRow; side: TransferSide }> {
    const found = await repo.findById(id);
    if (!found) throw notFound('Case transfer');
    const side = sideOf(principal, found);
    if (!side) throw forbidden();
    return { row: await expireIfDue(found), side };
  }

  /**
   * Accept and acknowledge give a closed case to another crew (to read, then to own): refused. Closing
   * is refused while a transfer is live, but a close and a transfer's opening can race; this check runs
   * under the case's row lock, so whichever commits second sees the other.
   */
  async function requireOpenCase(trx: Transaction<DB>, row: TransferRow): Promise<void> {
    if (await cases.lockIsClosed(trx, row.case_id)) throw conflict(transferMessages.notAvailable);
  }

  async function change(principal: Principal, id: string, step: Transition): Promise<CaseTransfer> {
    const { row, side } = await requireParty(principal, id);
    if (side !== step.by) throw forbidden();
    if (step.alreadyDone(row)) return toCaseTransfer(row);
    if (!step.allowed(row)) throw conflict(refusal(row));
    const at = now();
    const won = await repo.transaction(async (trx) => {
      const applied = await repo.transition(trx, row, { ...step.changes(row, at), updated_at: at });
      if (applied && step.alongside) await step.alongside(trx, row, stepOf(row, principal.userId, at));
      return applied;
    });
    const current = await repo.findById(id);
    if (!current) throw notFound('Case transfer');
    if (!won) {
      // Another change got there first: a retry of ours is fine, anything else is refused as of now.
      if (step.alreadyDone(current)) return toCaseTransfer(current);
      throw conflict(refusal(current));
    }
    if (step.revokesAccess) await reauthorizeCase(row.case_id);
    if (step.alongside) deps.cases.committed();
    return publish(current);
  }

  return {
    /** For the gateway's registry: the two crews of a transfer may follow `transfer:{id}`. */
    async maySubscribe(userId: string, transferId: string): Promise<boolean> {
      const row = await repo.findById(transferId);
      return row !== null && (row.created_by === userId || row.request_user_id === userId);
    },

    async get(principal: Principal, id: string): Promise<CaseTransfer> {
      return toCaseTransfer((await requireParty(principal, id)).row);
    },

    /** POST /v4/case-transfers: a crew on the case's access list opens a transfer of the open case. */
    async create(principal: Principal, caseId: string): Promise<CaseTransfer> {
      const found = await cases.findWithAccess(caseId, principal.userId);
      if (!found) throw notFound('Case');
      if (found.role === null || found.role === RECEIVER_ACCESS_ROLE) throw forbidden();
      if (found.row.arrived_at !== null) throw conflict(transferMessages.notAvailable);
      if (await deps.calls?.liveOnCase(caseId)) throw conflict(callMessages.closeCallToTransfer);
      const live = await repo.findLiveForCase(caseId);
      if (live && isLive((await expireIfDue(live)).status)) throw conflict(transferMessages.alreadyTransferring);

      const createdAt = now();
      const expiresAt = new Date(clock.now().getTime() + TRANSFER_LIFETIME_MS).toISOString();
      for (let draw = 0; draw < CODE_DRAWS; draw += 1) {
        const id = randomUUID();
        const code = drawCode();
        try {
          await repo.insert({
            id,
            case_id: caseId,
            code,
            live_code: code,
            live_case_id: caseId,
            status: 'open',
            created_by: principal.userId,
            ems_agency_id: found.row.agency_id,
            request_status: null,
            request_user_id: null,
            request_agency_id: null,
            request_truck_id: null,
            cancel_reason: null,
            created_at: createdAt,
            updated_at: createdAt,
            expires_at: expiresAt,
          });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Either a racing transfer of the same case won, or the code is in use: draw again.
          if (await repo.findLiveForCase(caseId)) throw conflict(transferMessages.alreadyTransferring);
          continue;
        }
        const row = await repo.findById(id);
        if (!row) throw notFound('Case transfer');
        return publish(row);
      }
      // Eight taken codes in a row means nearly every code is live: refuse rather than loop.
      throw conflict(transferMessages.notAvailable);
    },

    /** POST /v4/case-transfers/{code}/request: a crew, on one of its teams' trucks, asks for the case. */
    async request(principal: Principal, code: string, body: RequestTransferBody): Promise<CaseTransfer> {
      if (!principal.roles.includes('crew')) throw forbidden(transferMessages.notARequester);
      if (!isOnTeam(principal, body.emsAgencyId)) throw forbidden();
      const agency = await agencies.agencyForCase(body.emsAgencyId);
      if (!agency) throw notFound('Team');
      if (!agency.truckIds.includes(body.truckId)) throw badRequest('body.truckId: not a truck of this team');

      await refuseGuessing(principal.userId);
      const live = await repo.findLiveByCode(code);
      if (!live) {
        await recordMiss(principal.userId);
        const last = await repo.findNewestByCode(code);
        if (last?.status === 'expired') throw new AppError(410, 'not_found', transferMessages.hasExpired);
        throw new AppError(404, 'not_found', transferMessages.notAvailable);
      }
      const row = await expireIfDue(live);
      if (row.status === 'expired') throw new AppError(410, 'not_found', transferMessages.hasExpired);
      if (row.created_by === principal.userId) throw conflict(transferMessages.ownTransfer);
      if (row.request_user_id === principal.userId && row.request_status === 'open') return toCaseTransfer(row);
      if (!acceptsRequests(row)) throw conflict(transferMessages.notAvailable);
      if ((await cases.findWithAccess(row.case_id, principal.userId))?.role) {
        throw conflict(transferMessages.notAvailable);
      }

      const at = now();
      const won = await repo.transaction((trx) =>
        repo.transition(trx, row, {
          request_status: 'open',
          request_user_id: principal.userId,
          request_agency_id: body.emsAgencyId,
          request_truck_id: body.truckId,
          updated_at: at,
        }),
      );
      if (!won) throw conflict(transferMessages.notAvailable);
      const current = await repo.findById(row.id);
      if (!current) throw notFound('Case transfer');
      const transfer = await publish(current);
      push.transferRequested(transfer);
      return transfer;
    },

    accept: (principal: Principal, id: string) =>
      change(principal, id, {
        by: 'sender',
        alreadyDone: (row) => row.request_status === 'accepted',
        allowed: (row) => row.status === 'open' && row.request_status === 'open',
        changes: () => ({ request_status: 'accepted' }),
        // The receiver loads the case before it marks it received: it needs to read it from now on.
        alongside: async (trx, row, caseStep) => {
          await requireOpenCase(trx, row);
          await cases.admitReceiver(trx, caseStep, requester(row), RECEIVER_ACCESS_ROLE);
        },
      }),

    deny: (principal: Principal, id: string) =>
      change(principal, id, {
        by: 'sender',
        alreadyDone: (row) => row.status === 'open' && row.request_status === 'denied',
        allowed: (row) => row.status === 'open' && row.request_status === 'open',
        changes: () => ({ request_status: 'denied' }),
      }),

    cancel: (principal: Principal, id: string, reason: 'user' | 'timeout') =>
      change(principal, id, {
        by: 'sender',
        alreadyDone: (row) => row.status === 'cancelled',
        allowed: senderMayCancel,
        changes: () => ended({ status: 'cancelled', cancel_reason: reason }),
      }),

    cancelRequest: (principal: Principal, id: string) =>
      change(principal, id, {
        by: 'receiver',
        alreadyDone: (row) => row.request_status === 'cancelled',
        allowed: (row) => row.status === 'open' && row.request_status === 'open',
        changes: () => ({ request_status: 'cancelled' }),
      }),

    received: (principal: Principal, id: string) =>
      change(principal, id, {
        by: 'receiver',
        alreadyDone: (row) => row.request_status === 'received' || row.request_status === 'done',
        allowed: (row) => row.status === 'open' && row.request_status === 'accepted',
        changes: () => ({ request_status: 'received' }),
      }),

    acknowledge: (principal: Principal, id: string) =>
      change(principal, id, {
        by: 'sender',
        alreadyDone: (row) => row.status === 'done',
        allowed: (row) => row.status === 'open' && row.request_status === 'received',
        changes: () => ended({ status: 'done', request_status: 'done' }),
        alongside: async (trx, row, caseStep) => {
          await requireOpenCase(trx, row);
          await cases.handOver(trx, caseStep, row.created_by, requester(row));
        },
        revokesAccess: true,
      }),

    /** Expires every transfer whose lifetime has run out; answers how many it expired. */
    async expireDue(): Promise<number> {
      let expired = 0;
      for (const row of await repo.dueForExpiry(now(), EXPIRY_SWEEP_BATCH)) {
        if ((await expireIfDue(row)).status === 'expired') expired += 1;
      }
      return expired;
    },
  };
}

export type TransfersService = ReturnType<typeof createTransfersService>;
