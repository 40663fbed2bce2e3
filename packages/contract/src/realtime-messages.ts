/**
 * What travels on each kind of real-time channel: the `event` of a `message` frame (realtime.ts), as a
 * zod union per channel kind. The server builds every message with these schemas (and checks it before
 * it publishes); the clients parse every message they receive with `parseChannelMessage` — nobody casts
 * a real-time payload (the lint rule `no-restricted-syntax` says so). Messages carry the change itself,
 * so a client applies it to what it holds rather than reading again.
 *
 * | channel                | `type`                  | `data`                                    | sent when                                   |
 * |------------------------|-------------------------|-------------------------------------------|---------------------------------------------|
 * | `case:{id}`            | `case.updated`          | `CaseUpdated` { caseId, event, upload? }  | a case event was recorded (every kind)      |
 * | `case:{id}`            | `media.converted`       | `MediaConverted` { caseId, upload }       | an upload became ready (or failed)          |
 * | `case:{id}`            | `chat.message`          | `ChatMessage`                             | a chat message was stored                   |
 * | `case:{id}`            | `chat.receipt`          | `ChatReceipt`                             | a message was delivered / read              |
 * | `case:{id}`            | `consult.updated`       | `ConsultResponse` (consults.ts)           | the case's live consult room changed        |
 * | `hospital:{id}`        | `case.updated`          | `HospitalCaseUpdated` { caseId, event, card } | a case event of a case coming (or no longer coming) to the hospital |
 * | `hospital:{id}`        | `case.card`             | `HospitalCaseCard` { caseId, card }       | a case's card changed without a case event (a crew chat message, or its read receipt: `unreadChat`) |
 * | `hospital:{id}`        | `broadcast.sent`        | { broadcastId }                           | a colleague sent a broadcast                |
 * | `hospital:{id}`        | `dispatch.updated`      | { dispatchId }                            | a dispatch was made or claimed              |
 * | `hospital-status:{id}` | `hospital.status`       | `HospitalStatusesResponse`                | the hospital's statuses changed             |
 * | `broadcast:{agencyId}` | `broadcast.message`     | `BroadcastMessage`                        | a hospital broadcast to the agency          |
 * | `transfer:{id}`        | `CASE_TRANSFER_UPDATED` | `CaseTransfer`                            | the transfer moved on (spec §7's name)      |
 * | `hospital:{id}`, `call:{id}` | `call.ring`, `call.answered`, `call.ended`, `call.signal` | see calls.ts | a voice call rings, is taken, ends; WebRTC signals |
 * | `hospital:{id}`, `consult:{id}` | `consult.updated`; `consult.joined`, `consult.left`, `consult.ended`, `consult.signal` | see consults.ts | a live consult's room changed; WebRTC signals between its participants |
 * | `user:{id}`            | `team.alert`            | `TeamAlert` { activation, reason }        | the user is alerted by a team activation    |
 * | `user:{id}`            | `offload.alert`         | `OffloadAlert` (charge-nurse.ts)          | a truck waits past the offload threshold at a hospital where the user is charge nurse |
 *
 * `case.updated` on `case:{id}` carries the recorded event: an acknowledgement says who and when
 * (`payload.byName`, `createdAt`, `payload.hospitalName`), a media event carries its `upload` item.
 * On `hospital:{id}` it carries `card`, the board's card of the case as it is after the event (the
 * board replaces exactly that card; a position report included), or `card: null` when the case is no
 * longer on that hospital's board (its destination changed away). `case.card` is the same card for a
 * change that is not a case event — the unread count moved with a chat message or a read receipt — and is
 * applied the same way. No message needs a read to apply.
 */
import { z } from 'zod';
import { HospitalStatusesResponse } from './api.js';
import { BoardCase } from './board.js';
import { HOSPITAL_EVENTS } from './dispatch.js';
import { TeamAlert, USER_CHANNEL_EVENTS } from './activation.js';
import { OffloadAlert } from './charge-nurse.js';
import { RecordedCaseEvent } from './case-events.js';
import { BroadcastMessage, Id } from './entities.js';
import { CallChannelMessage, HospitalCallMessages } from './calls.js';
import { ConsultChannelMessage, ConsultUpdatedMessages } from './consults.js';
import { MediaUpload } from './media.js';
import { CaseTransfer, ChatMessage, ChatReceipt } from './realtime-api.js';
import { parseChannelName, type ChannelKind, type RealtimeEvent } from './realtime.js';

/** Message types on `case:{id}`. */
export const CASE_CHANNEL_EVENTS = {
  caseUpdated: 'case.updated',
  mediaConverted: 'media.converted',
  chatMessage: 'chat.message',
  chatReceipt: 'chat.receipt',
} as const;

/** Message types on `hospital:{id}`. */
export const HOSPITAL_CHANNEL_EVENTS = {
  caseUpdated: 'case.updated',
  caseCard: 'case.card',
  ...HOSPITAL_EVENTS,
} as const;

export const HOSPITAL_STATUS_CHANNEL_EVENTS = { status: 'hospital.status' } as const;
export const BROADCAST_CHANNEL_EVENTS = { message: 'broadcast.message' } as const;
/** Spec §7's name for a transfer's change. */
export const TRANSFER_CHANNEL_EVENTS = { updated: 'CASE_TRANSFER_UPDATED' } as const;

export const CaseUpdated = z.object({
  caseId: Id,
  event: RecordedCaseEvent,
  /** With a media event: the upload as the case's media list shows it. */
  upload: MediaUpload.optional(),
});
export type CaseUpdated = z.infer<typeof CaseUpdated>;

export const MediaConverted = z.object({ caseId: Id, upload: MediaUpload });
export type MediaConverted = z.infer<typeof MediaConverted>;

export const HospitalCaseUpdated = z.object({
  caseId: Id,
  event: RecordedCaseEvent,
  /** The case's card after the event; null: the case is no longer on this hospital's board. */
  card: BoardCase.nullable(),
});
export type HospitalCaseUpdated = z.infer<typeof HospitalCaseUpdated>;

/**
 * A case's card after a change that is not a case event (so there is no `event` to carry): the case is
 * coming to the hospital, so the card is never null — a case leaving the board does so by an event.
 */
export const HospitalCaseCard = z.object({ caseId: Id, card: BoardCase });
export type HospitalCaseCard = z.infer<typeof HospitalCaseCard>;

const message = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ type: z.literal(type), data });

export const CaseChannelMessage = z.discriminatedUnion('type', [
  message(CASE_CHANNEL_EVENTS.caseUpdated, CaseUpdated),
  message(CASE_CHANNEL_EVENTS.mediaConverted, MediaConverted),
  message(CASE_CHANNEL_EVENTS.chatMessage, ChatMessage),
  message(CASE_CHANNEL_EVENTS.chatReceipt, ChatReceipt),
  ...ConsultUpdatedMessages,
]);
export type CaseChannelMessage = z.infer<typeof CaseChannelMessage>;

export const HospitalChannelMessage = z.discriminatedUnion('type', [
  message(HOSPITAL_CHANNEL_EVENTS.caseUpdated, HospitalCaseUpdated),
  message(HOSPITAL_CHANNEL_EVENTS.caseCard, HospitalCaseCard),
  message(HOSPITAL_CHANNEL_EVENTS.broadcastSent, z.object({ broadcastId: Id })),
  message(HOSPITAL_CHANNEL_EVENTS.dispatchUpdated, z.object({ dispatchId: Id })),
  ...HospitalCallMessages,
  ...ConsultUpdatedMessages,
]);
export type HospitalChannelMessage = z.infer<typeof HospitalChannelMessage>;

export const HospitalStatusChannelMessage = message(HOSPITAL_STATUS_CHANNEL_EVENTS.status, HospitalStatusesResponse);
export const BroadcastChannelMessage = message(BROADCAST_CHANNEL_EVENTS.message, BroadcastMessage);
export const TransferChannelMessage = message(TRANSFER_CHANNEL_EVENTS.updated, CaseTransfer);
/** On `user:{id}`: the user's own alerts (a team activation calling them, an offload for its charge nurse). */
export const UserChannelMessage = z.discriminatedUnion('type', [
  message(USER_CHANNEL_EVENTS.teamAlert, TeamAlert),
  message(USER_CHANNEL_EVENTS.offloadAlert, OffloadAlert),
]);

/** The schema of each channel kind's messages. */
export const CHANNEL_MESSAGES = {
  case: CaseChannelMessage,
  hospital: HospitalChannelMessage,
  'hospital-status': HospitalStatusChannelMessage,
  broadcast: BroadcastChannelMessage,
  transfer: TransferChannelMessage,
  user: UserChannelMessage,
  call: CallChannelMessage,
  consult: ConsultChannelMessage,
} as const satisfies Record<ChannelKind, z.ZodType>;

export type ChannelMessage<K extends ChannelKind> = z.infer<(typeof CHANNEL_MESSAGES)[K]>;

/**
 * A received message of a channel of kind `kind`, checked; null when it is not one of that kind's
 * messages (an older or newer server's, or a broken one): the caller then ignores it.
 */
export function parseChannelMessage<K extends ChannelKind>(kind: K, event: RealtimeEvent): ChannelMessage<K> | null {
  const parsed = CHANNEL_MESSAGES[kind].safeParse(event);
  // The one place the kind's schema output meets the generic type (TypeScript cannot narrow K here).
  // eslint-disable-next-line no-restricted-syntax
  return parsed.success ? (parsed.data as ChannelMessage<K>) : null;
}

/** The same, for a message frame's channel name (`case:…`, `hospital:…`). */
export function parseMessageOf(channel: string, event: RealtimeEvent) {
  const name = parseChannelName(channel);
  if (!name) return null;
  return parseChannelMessage(name.kind, event);
}
