/**
 * Broadcasts to a user's teams. A user sees a broadcast when it was sent to any of their teams; the
 * recipient list shows only those teams, so one agency never learns which other agencies a message
 * went to. ED staff (or an organisation admin) send them for a hospital, to agencies that deliver to
 * it; each is stored, then published live on `broadcast:{agencyId}` of every recipient.
 *
 * A send takes an Idempotency-Key like the case writes: the same key with the same request answers
 * the first broadcast and writes and publishes nothing; the same key with another request is 409.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  channelName,
  HOSPITAL_EVENTS,
  SENT_BROADCASTS_PAGE_DEFAULT,
  serverMessages,
  type BroadcastMessage,
  type SendBroadcastBody,
  type SentBroadcastsPage,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, toFlag } from '../../db/json.js';
import { toJson } from '../../db/json.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { Answer, WriteContext } from '../cases/cases.service.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { BroadcastsRepository, StoredBroadcastKey } from './broadcasts.repository.js';

export const BROADCAST_LIST_LIMIT = 100;
export const broadcastChannel = (agencyId: string) => channelName('broadcast', agencyId);

type SendBody = z.output<typeof SendBroadcastBody>;

export interface BroadcastsServiceDeps {
  repo: BroadcastsRepository;
  clock: Clock;
  publisher: RealtimePublisher;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<{ id: string; name: string }[]> };
  agencies: { agencyIdsDeliveringTo(hospitalId: string): Promise<string[]> };
  users: { displayName(userId: string): Promise<string | null> };
}

/** The sent list's cursor: the last row's time and id, opaque to clients. */
const encodeCursor = (row: { created_at: string; id: string }) =>
  Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // reported below
  }
  throw badRequest('query.cursor: not a cursor this list gave');
}

function replay(stored: StoredBroadcastKey, ctx: WriteContext): Answer<BroadcastMessage> {
  if (stored.request_hash !== ctx.requestHash) {
    throw conflict(serverMessages.idempotencyKeyReused, 'idempotency_key_reused');
  }
  return { body: JSON.parse(stored.response) as BroadcastMessage, replayed: true };
}

export function createBroadcastsService({ repo, clock, publisher, hospitals, agencies, users }: BroadcastsServiceDeps) {
  /** Only those who may send for the hospital learn who its broadcasts can reach. */
  async function requireSender(principal: Principal, hospitalId: string): Promise<{ id: string; name: string }> {
    if (!isOrgAdmin(principal) && !principal.edHospitalIds.includes(hospitalId)) throw forbidden();
    const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    return hospital;
  }

  /**
   * After the commit: each agency's copy names only that agency, as the list does; the hospital's own
   * consoles hear that one was sent (their Sent list reads it again).
   */
  async function announce(message: BroadcastMessage, hospitalId: string): Promise<void> {
    for (const agencyId of message.emsAgencies) {
      await publisher.publish(broadcastChannel(agencyId), {
        type: 'broadcast.message',
        data: { ...message, emsAgencies: [agencyId] },
      });
    }
    await publisher.publish(channelName('hospital', hospitalId), {
      type: HOSPITAL_EVENTS.broadcastSent,
      data: { broadcastId: message._id },
    });
  }

  const senderName = async (principal: Principal) => (await users.displayName(principal.userId)) ?? principal.username;

  return {
    requireSender,
    announce,
    senderName,
    replay,

    /** POST /notification/broadcasts: answers the broadcast as sent (all its recipients). */
    async send(principal: Principal, ctx: WriteContext, body: SendBody): Promise<Answer<BroadcastMessage>> {
      // A known key is answered before the checks, as the case writes do: the first request passed them.
      const known = await repo.findKey(principal.userId, ctx.idempotencyKey);
      if (known) return replay(known, ctx);
      const hospital = await requireSender(principal, body.hospitalId);
      const delivering = new Set(await agencies.agencyIdsDeliveringTo(body.hospitalId));
      const recipients = [...new Set(body.emsAgencyIds)];
      const strangers = recipients.filter((id) => !delivering.has(id));
      if (strangers.length > 0) {
        throw badRequest(`body.emsAgencyIds: not an agency that delivers to this hospital: ${strangers.join(', ')}`);
      }
      const id = randomUUID();
      const createdAt = clock.now().toISOString();
      const sentByName = await senderName(principal);
      const message: BroadcastMessage = {
        _id: id,
        timestamp: createdAt,
        content: body.content,
        urgent: body.urgent,
        type: body.type,
        caseNumber: body.caseNumber,
        senderOrganizationName: hospital.name,
        emsAgencies: recipients,
      };
      try {
        await repo.insert(
          {
            id,
            content: body.content,
            urgent: toFlag(body.urgent),
            type: body.type,
            case_number: body.caseNumber,
            sender_organization_name: hospital.name,
            created_at: createdAt,
            hospital_id: body.hospitalId,
            sent_by: principal.userId,
            sent_by_name: sentByName,
          },
          recipients,
          {
            user_id: principal.userId,
            key: ctx.idempotencyKey,
            broadcast_id: id,
            request_hash: ctx.requestHash,
            response: toJson(message),
            created_at: createdAt,
          },
        );
      } catch (error) {
        // A duplicate that raced this one past the lookup above committed first: answer with its broadcast.
        const winner = isUniqueViolation(error) ? await repo.findKey(principal.userId, ctx.idempotencyKey) : null;
        if (winner) return replay(winner, ctx);
        throw error;
      }
      await announce(message, body.hospitalId);
      return { body: message, replayed: false };
    },

    /** GET /v4/hospitals/{id}/broadcast-recipients. */
    async recipients(principal: Principal, hospitalId: string): Promise<{ agencies: { _id: string; name: string }[] }> {
      await requireSender(principal, hospitalId);
      const rows = await repo.recipientAgencies(hospitalId);
      return { agencies: rows.map((row) => ({ _id: row.id, name: row.name })) };
    },

    /** GET /v4/hospitals/{id}/broadcasts: what the hospital sent, newest first, a page at a time. */
    async sent(
      principal: Principal,
      hospitalId: string,
      query: { cursor?: string | undefined; limit?: number | undefined },
    ): Promise<SentBroadcastsPage> {
      await requireSender(principal, hospitalId);
      const limit = query.limit ?? SENT_BROADCASTS_PAGE_DEFAULT;
      const after = query.cursor ? decodeCursor(query.cursor) : null;
      // One row more than the page tells whether another page follows.
      const rows = await repo.sentBy(hospitalId, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        data: page.map((row) => ({
          _id: row.id,
          timestamp: row.created_at,
          content: row.content,
          urgent: fromFlag(row.urgent),
          type: row.type,
          caseNumber: row.case_number,
          senderOrganizationName: row.sender_organization_name,
          emsAgencies: row.agencies.map((a) => a.id),
          agencies: row.agencies.map((a) => ({ _id: a.id, name: a.name })),
          sentByName: row.sent_by_name,
        })),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
      };
    },

    channels(principal: Principal): Promise<{ channels: { broadcast: string[] } }> {
      return Promise.resolve({ channels: { broadcast: principal.teamIds.map(broadcastChannel) } });
    },

    async list(principal: Principal): Promise<{ data: BroadcastMessage[] }> {
      const rows = await repo.listForAgencies(principal.teamIds, BROADCAST_LIST_LIMIT);
      return {
        data: rows.map((row) => ({
          _id: row.id,
          timestamp: row.created_at,
          content: row.content,
          urgent: fromFlag(row.urgent),
          type: row.type,
          caseNumber: row.case_number,
          senderOrganizationName: row.sender_organization_name,
          emsAgencies: row.agencyIds.filter((id) => principal.teamIds.includes(id)),
          cancelledAt: row.cancelled_at ?? null,
        })),
      };
    },
  };
}

export type BroadcastsService = ReturnType<typeof createBroadcastsService>;
