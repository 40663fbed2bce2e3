/**
 * A recorded case event, told to who follows the case (the outbox relays each event here once it is
 * committed, with its case's row): on `case:{id}` the event itself (with the upload of a media event), on the destination's
 * `hospital:{id}` the event and the case's board card as it is now, and on a previous destination's
 * board `card: null` (the case left it). A hospital not on the platform gets nothing. A destination
 * change first has the case's subscribers checked again, so the old hospital's staff lose the channel
 * before the message goes out. Every message carries the event's id as its dedupe key: told twice,
 * it is stored once.
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
  boardCard(row: CaseRow): Promise<BoardCase>;
  upload(uploadId: string): Promise<MediaUpload | null>;
}

export interface CaseAnnouncer {
  /**
   * `row`: the event's case as read after the event's commit (the relay reads a batch's cases at once);
   * null when the case is gone (a deleted test fixture) — then nobody follows it and nothing goes out.
   */
  event(event: RecordedCaseEvent, row: CaseRow | null): Promise<void>;
  /** A `case:{id}` message that is not a case event (chat, receipt, conversion), under its dedupe key. */
  message(caseId: string, message: CaseChannelMessage, dedupeKey: string): Promise<void>;
}

export function createCaseAnnouncer(deps: CaseAnnouncerDeps): CaseAnnouncer {
  const { publisher } = deps;
  async function announceEvent(event: RecordedCaseEvent, row: CaseRow | null): Promise<void> {
    const { caseId } = event;
    if (!row) return;
    // A change of who may read the case: its subscribers are checked again before the message goes out.
    if (event.type === 'hospital' || (event.type === 'transfer' && event.payload.action !== 'receiverAdmitted'))
      await publisher.reauthorize(channelName('case', caseId));
    const upload = isMediaCaseEvent(event) ? await deps.upload(event.payload.uploadId) : null;
    await publishMessage(
      publisher,
      'case',
      caseId,
      { type: CASE_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, ...(upload ? { upload } : {}) } },
      event.id,
    );
    const destination = row.destination_hospital_id;
    if (destination && (await deps.hospitalOnPlatform(destination))) {
      const card = await deps.boardCard(row);
      await publishMessage(
        publisher,
        'hospital',
        destination,
        { type: HOSPITAL_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, card } },
        event.id,
      );
    }
    const previous = event.type === 'hospital' ? event.payload.previous : null;
    if (previous && previous !== destination && (await deps.hospitalOnPlatform(previous))) {
      await publishMessage(
        publisher,
        'hospital',
        previous,
        { type: HOSPITAL_CHANNEL_EVENTS.caseUpdated, data: { caseId, event, card: null } },
        event.id,
      );
    }
  }
  return {
    event: announceEvent,
    async message(caseId, message, dedupeKey) {
      await publishMessage(publisher, 'case', caseId, message, dedupeKey);
    },
  };
}
