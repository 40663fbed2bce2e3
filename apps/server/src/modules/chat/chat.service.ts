/**
 * A case's chat (spec §3, §5, §7). A message is stored with its `chat.message` for `case:{id}` in the
 * case outbox (one transaction, published after the commit: cases service `announce`); crews with no
 * open socket get a Web Push. Each message the crew sends carries its
 * state — sent (stored), delivered (a client of the hospital received it), read — moved forward only
 * by receipts from the other side and published as `chat.receipt`, because "did they get it?" is what
 * crews ask most.
 *
 * A POST takes an Idempotency-Key like the case writes (the crew's outbox sends chat through it): the
 * key is stored on the message itself, unique per sender, so a retry answers the stored message and a
 * racing duplicate loses on the unique index.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import {
  CASE_CHANNEL_EVENTS,
  CHAT_SOURCE,
  PostChatMessageBody,
  serverMessages,
  type CaseChannelMessage,
  type ChatMessage,
  type ChatMessagesResponse,
  type ChatReceipt,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { CaseRow, DB } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import { isUniqueViolation } from '../cases/cases.repository.js';
import type { Answer, WriteContext } from '../cases/cases.service.js';
import { OWNER_ROLE, type CaseAccess, type CaseSide } from '../cases/case-access.js';
import { isSeqViolation, type ChatMessageRow, type ChatRepository } from './chat.repository.js';

/** The console's source (the crew app's is the spec's CHAT_SOURCE). */
const HOSPITAL_CHAT_SOURCE = 'web_hospital' satisfies ChatMessage['source'];

/** A case's conversation is short (a transport lasts minutes); this bounds a read all the same. */
export const CHAT_LIST_LIMIT = 1_000;
const SEQ_ATTEMPTS = 5;
const RECEIVER_CANNOT_SEND_MESSAGE =
  'Only the crew that owns this case can send messages in it. A case being transferred to you can be used once the transfer is done.';

export interface ChatPush {
  /** Pushes the message to the case's crews (other than its sender) that have no open socket. */
  chatMessage(caseId: string, caseNumber: string, message: ChatMessage): void;
}

export interface ChatServiceDeps {
  repo: ChatRepository;
  /** The case-access policy: crews and the destination's ED staff take part in a case's conversation. */
  participants: Pick<CaseAccess, 'requireReader'>;
  clock: Clock;
  /** The cases service: a message or receipt goes into the case outbox in its own write's transaction. */
  cases: {
    announce(trx: Transaction<DB>, caseId: string, message: CaseChannelMessage): Promise<void>;
    committed(): void;
  };
  push: ChatPush;
  users: { displayName(userId: string): Promise<string | null> };
}

type ParsedBody = z.output<typeof PostChatMessageBody>;

/** A VOICE_MEMO message read ready before the case write that records it with its upload. */
export interface VoiceMemoDraft {
  caseId: string;
  caseNumber: string;
  row: Omit<ChatMessageRow, 'seq' | 'media_id' | 'created_at'>;
}

/**
 * Voice memo as chat (issue 6 item 4), for the media module: the crew's voice memo upload with
 * `chatLength` also becomes a VOICE_MEMO message, written in the upload's own case write (same
 * transaction, same Idempotency-Key: a replay records neither again), then published and pushed like
 * any message.
 */
export interface VoiceMemoChat {
  /** Before the write: who sends it (name, the case's agency), when, its length. */
  prepare(
    principal: Principal,
    caseRow: CaseRow,
    input: { lengthSeconds: number; idempotencyKey: string; requestHash: string; clientCreatedAt: string | null },
  ): Promise<VoiceMemoDraft>;
  /** Inside the case write: the message, pointing at the upload, and its `chat.message` in the case outbox. */
  insert(trx: Transaction<DB>, draft: VoiceMemoDraft, mediaId: string, now: string): Promise<ChatMessage>;
  /** After the commit: a Web Push to crews with no open socket. */
  published(draft: VoiceMemoDraft, message: ChatMessage): Promise<void>;
}

export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return {
    _id: row.id,
    caseId: row.case_id,
    timestamp: row.client_timestamp,
    clientCreatedAt: row.client_created_at,
    createdAt: row.created_at,
    content: row.content,
    source: row.source as ChatMessage['source'],
    senderId: row.sender_id,
    senderName: row.sender_name,
    senderOrganization: row.sender_organization,
    type: row.type,
    mediaId: row.media_id,
    length: row.length === null ? null : Number(row.length),
    state: row.read_at !== null ? 'read' : row.delivered_at !== null ? 'delivered' : 'sent',
    deliveredAt: row.delivered_at,
    readAt: row.read_at,
  };
}

export function createChatService({ repo, participants, clock, cases, push, users }: ChatServiceDeps) {
  /** The message's `chat.message`, into the case outbox in the transaction that stores it. */
  const announceMessage = (trx: Transaction<DB>, row: ChatMessageRow) =>
    cases.announce(trx, row.case_id, { type: CASE_CHANNEL_EVENTS.chatMessage, data: toChatMessage(row) });

  /** Inserts with the case's next number, drawing again when a racing message took it. */
  async function insertNumbered(row: Parameters<ChatRepository['insert']>[0]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await repo.insert(row, announceMessage);
        return;
      } catch (error) {
        if (!isSeqViolation(error) || attempt >= SEQ_ATTEMPTS) throw error;
      }
    }
  }

  function replay(row: ChatMessageRow, ctx: WriteContext): Answer<ChatMessage> {
    if (row.request_hash !== ctx.requestHash) {
      throw conflict(serverMessages.idempotencyKeyReused, 'idempotency_key_reused');
    }
    return { body: toChatMessage(row), replayed: true };
  }

  async function receipt(
    principal: Principal,
    caseId: string,
    messageId: string,
    mark: ChatRepository['markDelivered'],
  ): Promise<ChatMessage> {
    const { side } = await participants.requireReader(principal, caseId);
    const row = await repo.findById(caseId, messageId);
    if (!row) throw notFound('Chat message');
    // Only the other side can say it received or read a message; the sender's own clients cannot.
    if (row.sender_side === side) throw conflict('A receipt comes from the side the message was sent to.');
    // The receipt's `chat.receipt` goes into the case outbox with the change itself.
    const changed = await mark(row.id, clock.now().toISOString(), (trx, updated) => {
      const message = toChatMessage(updated);
      const data: ChatReceipt = {
        messageId: message._id,
        caseId,
        state: message.state,
        deliveredAt: message.deliveredAt,
        readAt: message.readAt,
      };
      return cases.announce(trx, caseId, { type: CASE_CHANNEL_EVENTS.chatReceipt, data });
    });
    if (changed) cases.committed();
    return toChatMessage((await repo.findById(caseId, messageId)) ?? row);
  }

  return {
    async list(principal: Principal, caseId: string): Promise<ChatMessagesResponse> {
      await participants.requireReader(principal, caseId);
      return { messages: (await repo.listForCase(caseId, CHAT_LIST_LIMIT)).map(toChatMessage) };
    },

    async post(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      body: ParsedBody,
    ): Promise<Answer<ChatMessage>> {
      const known = await repo.findByKey(principal.userId, ctx.idempotencyKey);
      if (known) return replay(known, ctx);
      const { row: caseRow, side, crewRole, hospitalName } = await participants.requireReader(principal, caseId);
      // A crew receiving a transfer reads the case before it is done, but speaks for it only after (§4:
      // it has no case screen until then); the crew that owns the case does.
      if (side === 'crew' && crewRole !== OWNER_ROLE) throw forbidden(RECEIVER_CANNOT_SEND_MESSAGE);
      if (caseRow.arrived_at !== null) throw conflict(serverMessages.caseClosed, 'case_closed');
      // A voice memo names a recording of this case, never one of another case (or agency).
      if (body.type === 'VOICE_MEMO' && !(await repo.mediaOfCase(caseId, body.mediaId ?? ''))) {
        throw badRequest('mediaId: no recording of this case has this id');
      }
      // Who speaks is who signed in: the body's source and senderOrganization are not trusted (a crew
      // could otherwise post as the hospital).
      const sender =
        side === 'crew'
          ? { source: CHAT_SOURCE, organization: (await repo.agencyName(caseRow.agency_id)) ?? '' }
          : { source: HOSPITAL_CHAT_SOURCE, organization: hospitalName ?? '' };
      const now = clock.now().toISOString();
      const id = randomUUID();
      try {
        await insertNumbered({
          id,
          case_id: caseId,
          sender_id: principal.userId,
          sender_name: (await users.displayName(principal.userId)) ?? principal.username,
          sender_organization: sender.organization,
          sender_side: side satisfies CaseSide,
          source: sender.source,
          device_id: body.deviceId,
          type: body.type,
          content: body.message,
          media_id: body.mediaId ?? null,
          length: body.length ?? null,
          client_timestamp: new Date(body.timestamp).toISOString(),
          client_created_at: new Date(body.clientCreatedAt).toISOString(),
          created_at: now,
          delivered_at: null,
          read_at: null,
          idempotency_key: ctx.idempotencyKey,
          request_hash: ctx.requestHash,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await repo.findByKey(principal.userId, ctx.idempotencyKey);
        if (!winner) throw error;
        return replay(winner, ctx);
      }
      const stored = await repo.findById(caseId, id);
      if (!stored) throw notFound('Chat message');
      const message = toChatMessage(stored);
      cases.committed();
      push.chatMessage(caseId, caseRow.case_number, message);
      return { body: message, replayed: false };
    },

    voiceMemos: {
      async prepare(principal, caseRow, input) {
        const now = clock.now().toISOString();
        const at = input.clientCreatedAt ?? now;
        const [senderName, organization] = await Promise.all([
          users.displayName(principal.userId),
          repo.agencyName(caseRow.agency_id),
        ]);
        return {
          caseId: caseRow.id,
          caseNumber: caseRow.case_number,
          row: {
            id: randomUUID(),
            case_id: caseRow.id,
            sender_id: principal.userId,
            sender_name: senderName ?? principal.username,
            sender_organization: organization ?? '',
            sender_side: 'crew',
            source: CHAT_SOURCE,
            device_id: CHAT_SOURCE,
            type: 'VOICE_MEMO',
            content: '',
            length: input.lengthSeconds,
            client_timestamp: at,
            client_created_at: at,
            delivered_at: null,
            read_at: null,
            // The upload's key: unique per sender, as a chat POST's, and never one of theirs.
            idempotency_key: input.idempotencyKey,
            request_hash: input.requestHash,
          },
        };
      },
      async insert(trx, draft, mediaId, now) {
        const row = await repo.insertInCaseWrite(trx, { ...draft.row, media_id: mediaId, created_at: now });
        await announceMessage(trx, row);
        return toChatMessage(row);
      },
      async published(draft, message) {
        push.chatMessage(draft.caseId, draft.caseNumber, message);
      },
    } satisfies VoiceMemoChat,

    delivered: (principal: Principal, caseId: string, messageId: string) =>
      receipt(principal, caseId, messageId, (id, at, alongside) => repo.markDelivered(id, at, alongside)),

    read: (principal: Principal, caseId: string, messageId: string) =>
      receipt(principal, caseId, messageId, (id, at, alongside) => repo.markRead(id, at, alongside)),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
