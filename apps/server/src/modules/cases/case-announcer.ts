/**
 * A recorded case event, told to who follows the case (the outbox relays each event here once it is
 * committed, with its case's row): on `case:{id}` the event itself (with the upload of a media event), on the destination's
 * `hospital:{id}` the event and the case's board card as it is now, and on a previous destination's
 * board `card: null` (the case left it). A hospital not on the platform gets nothing. A destination
 * change first has the case's subscribers checked again, so the old hospital's staff lose the channel
 * before the message goes out. Every message carries the event's id as its dedupe key: told twice,
 * it is stored once.
 *
 * The case's other messages (chat, receipts, conversions) go to `case:{id}` alone — except that a crew
 * chat message, and the hospital's read receipt of one, change the card's unread count, which the board
 * cannot see on `case:{id}`: those also send the card (`case.card`) to the destination's board.
 */
import {
  CASE_CHANNEL_EVENTS,
  type CaseChannelMessage,
  HOSPITAL_CHANNEL_EVENTS,
  channelName,
  isMediaCaseEvent,
  type BoardCase,
  type MediaUpload,
  type RecordedCaseEvent,
} from '@inbound/contract';
import type { CaseRow } from '../../db/schema.js';
import { publishMessage } from '../realtime/channel-messages.js';
import type { RealtimePublisher } from '../realtime/publisher.js';

export interface CaseAnnouncerDeps {
  publisher: RealtimePublisher;
  hospitalOnPlatform(hospitalId: string): Promise<boolean>;
  /** The board cards of the given cases, in their order (one set of list queries for all of them). */
  boardCards(rows: CaseRow[]): Promise<BoardCase[]>;
  upload(uploadId: string): Promise<MediaUpload | null>;
  /** Whether the case's chat message was sent by its crew: only those count as unread on the board. */
  sentByCrew(caseId: string, messageId: string): Promise<boolean>;
}

/** The announcements of one relay batch. */
export interface CaseBatchAnnouncer {
  /** One event of the batch; nothing goes out when its case is gone (a deleted test fixture). */
  event(event: RecordedCaseEvent): Promise<void>;
  /**
   * A `case:{id}` message that is not a case event (chat, receipt, conversion), under its dedupe key;
   * one that moves the unread count also sends the case's card to its destination's board.
   */
  message(caseId: string, message: CaseChannelMessage, dedupeKey: string): Promise<void>;
}

export interface CaseAnnouncer {
  /**
   * For a batch of the relay: `rows` are the batch's cases as read after all its events (or messages)
   * committed. What several of them need is looked up once (issue 11): whether a hospital is on the
   * platform, and the board cards — built together on the first one that needs one, with the board's
   * list queries.
   */
  batch(rows: readonly CaseRow[]): CaseBatchAnnouncer;
}

interface BatchLookups {
  hospitalOnPlatform(hospitalId: string): Promise<boolean>;
  /** The case's card for its destination's board; null when that hospital is not on the platform. */
  cardOnPlatform(hospitalId: string, caseId: string): Promise<BoardCase | null>;
}

export function createCaseAnnouncer(deps: CaseAnnouncerDeps): CaseAnnouncer {
  const { publisher } = deps;
  async function announceEvent(event: RecordedCaseEvent, row: CaseRow, lookups: BatchLookups): Promise<void> {
    const { caseId } = event;
    // A change of who may read the case: its subscribers are checked again before the message goes out.
    if (event.type === 'hospital' || (event.type === 'transfer' && event.payload.action !== 'receiverAdmitted'))
      await publisher.reauthorize(channelName('case', caseId));
    const destination = row.destination_hospital_id;
    const previous = event.type === 'hospital' ? event.payload.previous : null;
    // What the messages need is looked up first; then the event's messages are published together, so
    // they share one of the channel log's transactions (issue 11: one after another, each waited for a
    // commit of its own — on SQLite in the writer's queue behind the crews' writes).
    // A card that cannot be built holds back only the board's message: the case's own channel still gets
    // the event, and the failure leaves it in the outbox to be tried again (the case's message deduped).
    const [upload, cardLookup, toPrevious] = await Promise.all([
      isMediaCaseEvent(event) ? deps.upload(event.payload.uploadId) : null,
      destination
        ? lookups.cardOnPlatform(destination, caseId).then(
            (card) => ({ card, failed: false as const }),
            (error: unknown) => ({ card: null, failed: true as const, error }),
          )
        : { card: null, failed: false as const },
      previous !== null && previous !== destination ? lookups.hospitalOnPlatform(previous) : false,
    ]);
    const { card } = cardLookup;
    await Promise.all([
      publishMessage(
        publisher,
        'case',
        caseId,
        { type: CASE_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, ...(upload ? { upload } : {}) } },
        event.id,
      ),
      destination &&
        card &&
        publishMessage(
          publisher,
          'hospital',
          destination,
          { type: HOSPITAL_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, card } },
          event.id,
        ),
      previous &&
        toPrevious &&
        publishMessage(
          publisher,
          'hospital',
          previous,
          { type: HOSPITAL_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, card: null } },
          event.id,
        ),
    ]);
    if (cardLookup.failed) throw cardLookup.error;
  }

  /** Whether the message moves the board's unread count: a crew message stored, or read by the hospital. */
  function changesUnreadChat(caseId: string, message: CaseChannelMessage): Promise<boolean> {
    if (message.type === CASE_CHANNEL_EVENTS.chatMessage) return deps.sentByCrew(caseId, message.data._id);
    // A receipt comes from the side the message was sent to (chat.service.ts): read of a crew message
    // means read by the hospital. A delivered receipt leaves the count as it is.
    if (message.type === CASE_CHANNEL_EVENTS.chatReceipt && message.data.state === 'read')
      return deps.sentByCrew(caseId, message.data.messageId);
    return Promise.resolve(false);
  }

  async function announceMessage(
    caseId: string,
    message: CaseChannelMessage,
    dedupeKey: string,
    row: CaseRow | undefined,
    lookups: BatchLookups,
  ): Promise<void> {
    const destination = row?.destination_hospital_id;
    const card =
      destination && (await changesUnreadChat(caseId, message))
        ? await lookups.cardOnPlatform(destination, caseId)
        : null;
    // Together, as an event's messages are: one of the channel log's transactions for both.
    await Promise.all([
      publishMessage(publisher, 'case', caseId, message, dedupeKey),
      // The message's own key: keys are unique per channel, so it never meets the case channel's copy.
      destination &&
        card &&
        publishMessage(
          publisher,
          'hospital',
          destination,
          { type: HOSPITAL_CHANNEL_EVENTS.caseCard, data: { caseId, card } },
          dedupeKey,
        ),
    ]);
  }

  function batch(rows: readonly CaseRow[]): CaseBatchAnnouncer {
    const rowOf = new Map(rows.map((row) => [row.id, row]));
    const onPlatform = new Map<string, Promise<boolean>>();
    let cards: Promise<Map<string, BoardCase>> | null = null;
    const lookups: BatchLookups = {
      hospitalOnPlatform(hospitalId) {
        let answer = onPlatform.get(hospitalId);
        if (!answer) {
          answer = deps.hospitalOnPlatform(hospitalId);
          onPlatform.set(hospitalId, answer);
        }
        return answer;
      },
      async cardOnPlatform(hospitalId, caseId) {
        if (!(await lookups.hospitalOnPlatform(hospitalId))) return null;
        // Every case of the batch that has a destination gets its card in the one call.
        cards ??= deps
          .boardCards(rows.filter((row) => row.destination_hospital_id !== null))
          .then((list) => new Map(list.map((card) => [card.id, card])));
        const card = (await cards).get(caseId);
        if (!card) throw new Error(`no board card for case ${caseId}`);
        return card;
      },
    };
    return {
      async event(event) {
        const row = rowOf.get(event.caseId);
        if (row) await announceEvent(event, row, lookups);
      },
      // A message of a case that is gone still goes to `case:{id}`, as before; it has no card to send.
      message: (caseId, message, dedupeKey) => announceMessage(caseId, message, dedupeKey, rowOf.get(caseId), lookups),
    };
  }

  return { batch };
}
