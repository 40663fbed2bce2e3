/**
 * The calls and shapes of what must reach another person while the ambulance moves (issue 4): chat,
 * sending broadcasts, setting hospital statuses, Web Push subscriptions and case transfer (spec §3, §4,
 * §7, §8). Route entries for these live in `api.ts`; the schemas and texts live here.
 */
import { z } from 'zod';
import { CHAT_SOURCE, NAME_MAX_LENGTH } from './constants.js';
import { BroadcastMessage, HospitalStatus, Id, StatusPriority } from './entities.js';

// ---- chat ----------------------------------------------------------------------------------------

export const CHAT_MESSAGE_MAX_LENGTH = 4_000;
/** A voice memo is recorded on a phone in an ambulance; ten minutes is far more than anyone sends. */
export const VOICE_MEMO_MAX_SECONDS = 600;
/** Sources of a chat message: the crew app (spec §7) and the hospital console (ours). */
export const CHAT_SOURCES = [CHAT_SOURCE, 'web_hospital'] as const;
export const ChatSource = z.enum(CHAT_SOURCES);
export const ChatMessageType = z.enum(['CHAT', 'VOICE_MEMO']);
export type ChatMessageType = z.infer<typeof ChatMessageType>;
/** sent: stored; delivered: a client of the other side received it; read: someone there read it. */
export const ChatMessageState = z.enum(['sent', 'delivered', 'read']);
export type ChatMessageState = z.infer<typeof ChatMessageState>;

/** The largest time a JavaScript Date holds (±8.64e15 ms around 1970). */
const MAX_EPOCH_MS = 8_640_000_000_000_000;

/** POST /notification/twiage-cases/{id}/chat-messages (§7), plus the voice-memo fields of §3. */
export const PostChatMessageBody = z
  .object({
    clientCreatedAt: z.iso.datetime(),
    deviceId: z.string().min(1).max(64),
    message: z.string().max(CHAT_MESSAGE_MAX_LENGTH).default(''),
    /** The sender's clock: an ISO time, or epoch milliseconds (the spec leaves the type open); stored as ISO. */
    timestamp: z
      .union([z.iso.datetime(), z.number().int().min(0).max(MAX_EPOCH_MS)])
      .transform((v) => (typeof v === 'number' ? new Date(v).toISOString() : v)),
    source: ChatSource,
    senderOrganization: z.string().max(NAME_MAX_LENGTH),
    type: ChatMessageType.default('CHAT'),
    /** VOICE_MEMO: the uploaded recording (the media issue fills the upload). */
    mediaId: Id.optional(),
    /** VOICE_MEMO: its length in seconds (§3 `length`). */
    length: z.number().positive().max(VOICE_MEMO_MAX_SECONDS).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'CHAT') {
      // §5: whitespace-only messages are not sent.
      if (body.message.trim() === '')
        ctx.addIssue({ code: 'custom', path: ['message'], message: 'message is required' });
      if (body.mediaId !== undefined || body.length !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['type'], message: 'mediaId and length belong to a VOICE_MEMO' });
      }
    } else {
      if (body.mediaId === undefined)
        ctx.addIssue({ code: 'custom', path: ['mediaId'], message: 'mediaId is required' });
      if (body.length === undefined) ctx.addIssue({ code: 'custom', path: ['length'], message: 'length is required' });
    }
  });
export type PostChatMessageBody = z.input<typeof PostChatMessageBody>;

export const ChatMessage = z.object({
  _id: Id,
  caseId: Id,
  /** The sender's clock when the message was written (§7 `timestamp`). */
  timestamp: z.iso.datetime(),
  clientCreatedAt: z.iso.datetime(),
  /** Server time the message was stored: the order of the conversation. */
  createdAt: z.iso.datetime(),
  content: z.string(),
  source: ChatSource,
  senderId: Id,
  senderName: z.string(),
  senderOrganization: z.string(),
  type: ChatMessageType,
  mediaId: Id.nullable(),
  length: z.number().nullable(),
  state: ChatMessageState,
  deliveredAt: z.iso.datetime().nullable(),
  readAt: z.iso.datetime().nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatMessagesResponse = z.object({ messages: z.array(ChatMessage) });
export type ChatMessagesResponse = z.infer<typeof ChatMessagesResponse>;
export const ChatMessageParams = z.object({ id: Id, messageId: Id });

/** What `chat.receipt` carries on `case:{id}`: a message's new state. */
export const ChatReceipt = z.object({
  messageId: Id,
  caseId: Id,
  state: ChatMessageState,
  deliveredAt: z.iso.datetime().nullable(),
  readAt: z.iso.datetime().nullable(),
});
export type ChatReceipt = z.infer<typeof ChatReceipt>;

// ---- broadcasts ----------------------------------------------------------------------------------

export const BROADCAST_MAX_LENGTH = 2_000;
export const BROADCAST_MAX_AGENCIES = 100;

/** POST /notification/broadcasts: ED staff (or an organisation admin) speak for one hospital. */
export const SendBroadcastBody = z
  .object({
    hospitalId: Id,
    emsAgencyIds: z.array(Id).min(1, 'choose at least one agency').max(BROADCAST_MAX_AGENCIES),
    content: z.string().trim().min(1, 'content is required').max(BROADCAST_MAX_LENGTH),
    urgent: z.boolean().default(false),
    type: z.enum(['emsDispatch']).nullable().default(null),
    caseNumber: z.string().trim().min(1).max(64).nullable().default(null),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'emsDispatch' && body.caseNumber === null) {
      ctx.addIssue({ code: 'custom', path: ['caseNumber'], message: 'caseNumber is required for emsDispatch' });
    }
    if (body.type === null && body.caseNumber !== null) {
      ctx.addIssue({ code: 'custom', path: ['caseNumber'], message: 'caseNumber belongs to an emsDispatch broadcast' });
    }
  });
export type SendBroadcastBody = z.input<typeof SendBroadcastBody>;
export const SendBroadcastResponse = BroadcastMessage;

/** GET /v4/hospitals/{id}/broadcast-recipients: the agencies a hospital's broadcast may go to. */
export const BroadcastRecipient = z.object({ _id: Id, name: z.string() });
export type BroadcastRecipient = z.infer<typeof BroadcastRecipient>;
export const BroadcastRecipientsResponse = z.object({ agencies: z.array(BroadcastRecipient) });
export type BroadcastRecipientsResponse = z.infer<typeof BroadcastRecipientsResponse>;

// ---- hospital statuses ---------------------------------------------------------------------------

export const SetHospitalStatusBody = z.object({
  status: z.string().trim().min(1, 'status is required').max(NAME_MAX_LENGTH),
  priority: StatusPriority,
});
export type SetHospitalStatusBody = z.infer<typeof SetHospitalStatusBody>;
export const HospitalStatusParams = z.object({ id: Id, statusId: Id });
export const SetHospitalStatusResponse = HospitalStatus;

// ---- Web Push ------------------------------------------------------------------------------------

/** The browser's PushSubscription as `JSON.stringify(subscription)` gives it. */
export const PushSubscriptionJson = z.object({
  endpoint: z.url().max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key: 65 bytes, base64url. */
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}=?$/, 'keys.p256dh must be a P-256 public key (base64url)'),
    /** The 16-byte auth secret, base64url. */
    auth: z.string().regex(/^[A-Za-z0-9_-]{22}(==)?$/, 'keys.auth must be 16 bytes (base64url)'),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/** Topics of §4: the user's own `user-{id}` and a case's `ems-{caseId}`. */
export const PushTopic = z
  .string()
  .regex(/^(user|ems)-[A-Za-z0-9_-]{1,64}$/, 'topic must be user-{id} or ems-{caseId}');

/** POST /notification/subscribe and /unsubscribe (§7): the token is the PushSubscription, as JSON text or object. */
export const PushSubscriptionBody = z.object({
  registrationToken: z.union([
    PushSubscriptionJson,
    z
      .string()
      .max(4096)
      .transform((text, ctx) => {
        try {
          const parsed = PushSubscriptionJson.safeParse(JSON.parse(text));
          if (parsed.success) return parsed.data;
        } catch {
          // not JSON: reported below
        }
        ctx.addIssue({ code: 'custom', message: 'registrationToken must be a push subscription (JSON)' });
        return z.NEVER;
      }),
  ]),
  topic: PushTopic,
});
export type PushSubscriptionBody = z.input<typeof PushSubscriptionBody>;

export const VapidPublicKeyResponse = z.object({ publicKey: z.string() });

/** What a push notification carries (decrypted by the service worker). */
export const PushPayload = z.object({
  type: z.enum(['chat.message', 'CASE_TRANSFER_UPDATED', 'team.alert', 'offload.alert']),
  title: z.string(),
  body: z.string(),
  /** The crew-app route to open when the notification is tapped. */
  url: z.string(),
  caseId: Id.nullable(),
  transferId: Id.nullable(),
});
export type PushPayload = z.infer<typeof PushPayload>;

// ---- case transfer -------------------------------------------------------------------------------

/** §4 overall status. */
export const TransferStatus = z.enum(['open', 'done', 'cancelled', 'expired']);
export type TransferStatus = z.infer<typeof TransferStatus>;
/** §4 request status. */
export const TransferRequestStatus = z.enum(['open', 'accepted', 'received', 'denied', 'cancelled', 'done']);
export type TransferRequestStatus = z.infer<typeof TransferRequestStatus>;

/** Six digits: easy to read aloud over a radio; no letters, so no O/0 or I/1 mix-ups. */
export const TRANSFER_CODE_LENGTH = 6;
export const TransferCode = z
  .string()
  .trim()
  .min(1, 'Case transfer code is required')
  .regex(/^\d{6}$/, 'a case transfer code is six digits');
/** A transfer must be done within this time of being opened, else it expires (docs/decisions). */
export const TRANSFER_LIFETIME_MS = 10 * 60_000;

export const CaseTransfer = z.object({
  _id: Id,
  caseId: Id,
  caseTransferCode: z.string(),
  status: TransferStatus,
  /** The real-time channel of the transfer (spec field name): `transfer:{id}`. */
  pubnubChannel: z.string(),
  request: z
    .object({
      status: TransferRequestStatus,
      requestedBy: Id,
      emsAgencyId: Id,
      truckId: Id,
    })
    .nullable(),
  createdBy: Id,
  messageForSender: z.string().nullable(),
  messageForReceiver: z.string().nullable(),
  emsAgency: Id,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type CaseTransfer = z.infer<typeof CaseTransfer>;

export const CreateTransferBody = z.object({ caseId: Id });
export const TransferParams = z.object({ id: Id });
export const TransferCodeParams = z.object({ code: TransferCode });
export const RequestTransferBody = z.object({ emsAgencyId: Id, truckId: Id });
export type RequestTransferBody = z.infer<typeof RequestTransferBody>;
/** PATCH .../cancel, body optional: `timeout` when the client's 60 s offline timer cancelled it (§4). */
export const CancelTransferBody = z.object({ reason: z.enum(['user', 'timeout']).default('user') }).nullish();

/** The case-transfer texts of §4 and §8 word for word, and ours where the spec leaves one to us. */
export const transferMessages = {
  requestOpen: 'Someone wants to receive your case.',
  requestAccepted: 'The requester is loading the case.',
  requestReceived: 'The requester received the case.',
  requestCancelledForSender: 'Request cancelled.',
  requestCancelledForReceiver: 'Request Cancelled',
  requestDeclined: 'The request was declined.',
  notAvailable: 'Case not available for transfer.',
  notAvailableFromMessageCenter: (code: string) => `Warning: Case ${code} not available for transfer.`,
  hasExpired: 'Case Transfer has expired.',
  cancelled: 'The case transfer was cancelled.',
  expired: 'The case transfer expired.',
  timedOut: 'The case transfer timed out and it was cancelled.',
  done: 'The case transfer is done.',
  offline: 'You must have an active network connection to use Case Transfer. Please try again when online.',
  slowConnection: 'Slow or no internet connection. Please check your internet settings.',
  closeCallFirst: 'Close call to start Case Transfer',
  // Ours: the spec names these moments but not their words.
  giveCode: 'Give this number to the receiving provider.',
  waitingForSender: 'Waiting for the other crew to accept your request...',
  loadingCase: 'Request accepted. Loading the case...',
  alreadyTransferring: 'This case already has a case transfer in progress.',
  notARequester: 'Only a crew can receive a case.',
  ownTransfer: 'You cannot receive your own case.',
  notPossibleNow: 'This step is not possible in the case transfer right now.',
} as const;
