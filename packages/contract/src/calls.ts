/**
 * Voice calls from a crew to its destination ED, on the browsers' own WebRTC (issue 12). The server
 * never carries audio: it hands out ICE servers (STUN, TURN with short-lived credentials), keeps each
 * call's state (ringing → connected → ended, first ED answer wins) and relays the WebRTC offer, answer
 * and ICE candidates over `/realtime`:
 *
 * - `hospital:{id}`: `call.ring` to every console of the destination ED, `call.answered` (the others
 *   stop ringing), `call.ended`;
 * - `call:{id}`: the call's own channel (readers of its case, as `case:{id}`): `call.signal` (offer,
 *   answer, candidates; each says who sent it), `call.answered`, `call.ended`. A console that answers
 *   subscribes from sequence 0 and so receives the offer and candidates sent while it rang.
 *
 * Every call that ends is recorded as one `call` case event (who, when, how long, how it ended).
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { BoardCase } from './board.js';
import { EdPhoneNumber, Id } from './entities.js';

/** One ICE server as RTCPeerConnection takes it (`urls`, and TURN's `username` / `credential`). */
export const IceServer = z.object({
  urls: z.array(z.string()).min(1),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;

/** What the browser needs to connect: the servers, and `relay` when the deployment allows only TURN. */
export const IceConfig = z.object({
  iceServers: z.array(IceServer),
  iceTransportPolicy: z.enum(['all', 'relay']),
  /** How long the TURN credentials are valid (seconds); 0 without TURN. */
  ttlSeconds: z.number().int().nonnegative(),
});
export type IceConfig = z.infer<typeof IceConfig>;

/** Spec §3 "EMS department (voice call)": the ED the call goes to and whether it records calls. */
export const CallDepartment = z.object({ name: z.string(), allowsToRecord: z.boolean() });
export type CallDepartment = z.infer<typeof CallDepartment>;

/**
 * `GET /voip/twiage-cases/{id}/token` (spec §7): how this user may call about the case. `department`
 * null: the destination is not on the platform (or none is chosen) — then only its ED numbers can be
 * dialled, as `tel:` links.
 */
export const VoipTokenResponse = IceConfig.extend({
  department: CallDepartment.nullable(),
  edPhoneNumbers: z.array(EdPhoneNumber),
});
export type VoipTokenResponse = z.infer<typeof VoipTokenResponse>;

export const CallState = z.enum(['ringing', 'connected', 'ended']);
export type CallState = z.infer<typeof CallState>;

/**
 * How a call ended: `completed` (hung up after it connected), `cancelled` (the caller gave up while it
 * rang), `rejected` (the ED declined), `missed` (nobody answered in time), `failed` (no media path or a
 * device error), `lost` (the connection dropped during the call).
 */
export const CallOutcome = z.enum(['completed', 'cancelled', 'rejected', 'missed', 'failed', 'lost']);
export type CallOutcome = z.infer<typeof CallOutcome>;

/** How long a call rings before it counts as missed (the caller's app also stops at this point). */
export const CALL_RING_TIMEOUT_MS = 45_000;
/**
 * While connected, each party says it is still in the call every CALL_ALIVE_INTERVAL_MS (`POST
 * …/alive`); a connected call neither party has spoken for in CALL_ALIVE_TIMEOUT_MS — both browsers
 * closed, crashed or offline — is ended by the server as `lost`, with its case event.
 */
export const CALL_ALIVE_INTERVAL_MS = 10_000;
export const CALL_ALIVE_TIMEOUT_MS = 45_000;
/** Sizes a signal may have: an SDP of audio and video with many codecs is a few KB. */
export const SDP_MAX_LENGTH = 16_000;
export const CANDIDATE_MAX_LENGTH = 1_000;
/** Candidates per signal request (the browser gathers a handful; they are sent in small batches). */
export const CANDIDATES_PER_SIGNAL_MAX = 20;

export const Call = z.object({
  id: Id,
  caseId: Id,
  caseNumber: z.string(),
  hospitalId: Id,
  state: CallState,
  caller: z.object({ userId: Id, name: z.string() }),
  answeredBy: z.object({ userId: Id, name: z.string() }).nullable(),
  startedAt: z.iso.datetime(),
  answeredAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  outcome: CallOutcome.nullable(),
  /** The department records its calls (spec §3 allowsToRecord): both sides show REC once connected. */
  recording: z.boolean(),
});
export type Call = z.infer<typeof Call>;

export const SessionDescription = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().min(1).max(SDP_MAX_LENGTH),
});
export type SessionDescription = z.infer<typeof SessionDescription>;

export const IceCandidate = z.object({
  candidate: z.string().max(CANDIDATE_MAX_LENGTH),
  sdpMid: z.string().max(64).nullable(),
  sdpMLineIndex: z.number().int().min(0).max(64).nullable(),
});
export type IceCandidate = z.infer<typeof IceCandidate>;

// ---- routes' shapes ---------------------------------------------------------------------------------

export const CallCaseParams = z.object({ id: Id });
export const CallParams = z.object({ callId: Id });
export const HospitalCallsParams = z.object({ id: Id });

export const StartCallBody = z.object({ caseId: Id });
export type StartCallBody = z.infer<typeof StartCallBody>;

/** The call as it is now, with the ICE servers for this user (`POST /v4/calls`, `…/answer`). */
export const CallResponse = z.object({ call: Call, ice: IceConfig });
export type CallResponse = z.infer<typeof CallResponse>;

export const CallSignalBody = z
  .object({
    description: SessionDescription.optional(),
    candidates: z.array(IceCandidate).max(CANDIDATES_PER_SIGNAL_MAX).optional(),
  })
  .refine((b) => b.description !== undefined || (b.candidates?.length ?? 0) > 0, {
    message: 'a signal carries a description or at least one candidate',
  });
export type CallSignalBody = z.infer<typeof CallSignalBody>;

/** Why a party ends the call; the server turns it into the recorded outcome. */
export const EndCallBody = z.object({
  reason: z.enum(['hangup', 'cancel', 'reject', 'failed', 'lost', 'missed']),
});
export type EndCallBody = z.infer<typeof EndCallBody>;

// ---- real-time messages ---------------------------------------------------------------------------

/** Message types about calls, on `hospital:{id}` and on `call:{id}`. */
export const CALL_EVENTS = {
  ring: 'call.ring',
  answered: 'call.answered',
  ended: 'call.ended',
  signal: 'call.signal',
} as const;

/** Rings every console of the ED: the call and the case's board card (which case, which truck, priority). */
export const CallRing = z.object({ call: Call, card: BoardCase.nullable() });
export type CallRing = z.infer<typeof CallRing>;

/**
 * The calls ringing at a hospital now (a console opened or reconnected while a call rings learns it and
 * rings): at most RINGING_CALLS_MAX, the oldest first.
 */
export const RINGING_CALLS_MAX = 50;
export const RingingCallsResponse = z.object({ rings: z.array(CallRing).max(RINGING_CALLS_MAX) });
export type RingingCallsResponse = z.infer<typeof RingingCallsResponse>;

/** The call after it was answered or ended (each console stops ringing; the caller learns who took it). */
export const CallChanged = z.object({ call: Call });
export type CallChanged = z.infer<typeof CallChanged>;

export const CallSignal = z.object({
  callId: Id,
  /** Who sent it: each side ignores its own. */
  from: Id,
  description: SessionDescription.optional(),
  candidates: z.array(IceCandidate).optional(),
});
export type CallSignal = z.infer<typeof CallSignal>;

const message = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ type: z.literal(type), data });

export const HospitalCallMessages = [
  message(CALL_EVENTS.ring, CallRing),
  message(CALL_EVENTS.answered, CallChanged),
  message(CALL_EVENTS.ended, CallChanged),
] as const;

export const CallChannelMessage = z.discriminatedUnion('type', [
  message(CALL_EVENTS.signal, CallSignal),
  message(CALL_EVENTS.answered, CallChanged),
  message(CALL_EVENTS.ended, CallChanged),
]);
export type CallChannelMessage = z.infer<typeof CallChannelMessage>;

// ---- texts ----------------------------------------------------------------------------------------

/** Spec §4 / §8 call texts word for word, and ours where the spec is silent. */
export const callMessages = {
  connecting: 'Connecting...',
  disconnected: 'Disconnected',
  rec: 'REC',
  connectionIssue: 'Can not start call due to connection issue. Please check your network settings.',
  connectionLost: 'Connection lost. Call ended.',
  cancelled: 'Call was cancelled',
  rejected: 'Call was rejected',
  deviceError: 'Device error occurred',
  caseNotOpen: 'Case is not open',
  endCallToClose: 'End current call to close case',
  endCallToStartConsult: 'End current call to start live consult',
  closeCallToTransfer: 'Close call to start Case Transfer',
  // Ours
  noAnswer: (ed: string) => `${ed} did not answer. Try again, or call one of its numbers.`,
  transferInProgress: 'A case transfer of this case is in progress. Finish or cancel it to start a call.',
  callInProgress: 'A call about this case is already in progress.',
  noDestination: 'Please select a hospital to call its emergency department.',
  notOnPlatform: 'This hospital is not on the platform. Call its emergency department by phone.',
  answeredElsewhere: (name: string) => `This call was answered by ${name}.`,
  callOver: 'This call has ended.',
  notAParty: 'Only the caller and the person who answered take part in this call.',
} as const;

export const callRoutes = {
  voipToken: {
    method: 'GET',
    path: '/voip/twiage-cases/:id/token',
    summary: "ICE servers (short-lived TURN credentials) and the destination ED's department for a call about the case",
    auth: true,
    params: CallCaseParams,
    response: VoipTokenResponse,
  },
  startCall: {
    method: 'POST',
    path: '/v4/calls',
    summary: 'A crew calls its case’s destination ED: every console of the ED rings (crew of the case)',
    auth: true,
    body: StartCallBody,
    response: CallResponse,
  },
  ringingCalls: {
    method: 'GET',
    path: '/v4/hospitals/:id/calls/ringing',
    summary: "The crews' calls ringing at the hospital now, each with its board card (the hospital's ED staff)",
    auth: true,
    params: HospitalCallsParams,
    response: RingingCallsResponse,
  },
  answerCall: {
    method: 'POST',
    path: '/v4/calls/:callId/answer',
    summary: 'ED staff of the destination take a ringing call; the first wins, the others get 409',
    auth: true,
    params: CallParams,
    response: CallResponse,
  },
  signalCall: {
    method: 'POST',
    path: '/v4/calls/:callId/signal',
    summary: "A WebRTC offer, answer or ICE candidates for the call's other party (caller or answerer)",
    auth: true,
    params: CallParams,
    body: CallSignalBody,
    response: null,
  },
  endCall: {
    method: 'POST',
    path: '/v4/calls/:callId/end',
    summary: 'Hang up, cancel, reject or report a failed or lost call; recorded as a case event once',
    auth: true,
    params: CallParams,
    body: EndCallBody,
    response: CallChanged,
  },
  callAlive: {
    method: 'POST',
    path: '/v4/calls/:callId/alive',
    summary: 'A party of the connected call is still in it (every 10 s); a call nobody keeps alive ends as lost',
    auth: true,
    params: CallParams,
    response: null,
  },
  getCall: {
    method: 'GET',
    path: '/v4/calls/:callId',
    summary: 'The call as it is now (readers of its case)',
    auth: true,
    params: CallParams,
    response: CallChanged,
  },
} as const satisfies Record<string, RouteDef>;
