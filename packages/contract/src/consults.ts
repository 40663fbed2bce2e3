/**
 * Live video consults (issue 12 item 2; spec §4 "Live consult"): a room per case with its destination
 * hospital (when the hospital has `liveConsult` on), the crew and several hospital participants at once
 * (the ED physician at the console, a neurologist on a phone). Audio and video go browser to browser in
 * a full mesh of WebRTC connections (at most CONSULT_MAX_PARTICIPANTS); the server keeps the room (who
 * is in it), relays the WebRTC signals between named participants and records each consult as one
 * `liveconsult` case event when its room empties.
 *
 * - `consult:{id}`: the room's channel (readers of its case, as `case:{id}`): `consult.joined`,
 *   `consult.left`, `consult.ended` (each with the room as it is after) and `consult.signal` (offer,
 *   answer, candidates from one participant to another; each side keeps those addressed to it).
 * - `hospital:{id}` and `case:{id}`: `consult.updated` — the room of the case changed (the console's
 *   case detail shows "Join"; the crew, not in the room, is told and may join with a tap).
 *
 * Who offers: the participant who joins offers to everyone already in the room; those in the room
 * answer. So two sides never offer to each other at once.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { IceCandidate, IceConfig, SessionDescription } from './calls.js';
import { Id } from './entities.js';

/** A full mesh: each browser sends its video to every other one. Beyond 4, an SFU (docs/calls.md). */
export const CONSULT_MAX_PARTICIPANTS = 4;
/** A participant's browser says it is still there this often … */
export const CONSULT_PRESENCE_EVERY_MS = 10_000;
/** … and one not heard from for this long has left (its browser closed, its network gone). */
export const CONSULT_PRESENCE_TIMEOUT_MS = 35_000;
/** Joins a consult may have in all (rejoins included): bounds the rows and the case event. */
export const CONSULT_JOINS_MAX = 40;

export const ConsultSide = z.enum(['crew', 'hospital']);
export type ConsultSide = z.infer<typeof ConsultSide>;

/** One join of the room: a user may be in it from two devices, each a participant of its own. */
export const ConsultParticipant = z.object({
  id: Id,
  userId: Id,
  name: z.string(),
  side: ConsultSide,
  joinedAt: z.iso.datetime(),
  leftAt: z.iso.datetime().nullable(),
});
export type ConsultParticipant = z.infer<typeof ConsultParticipant>;

export const Consult = z.object({
  id: Id,
  caseId: Id,
  caseNumber: z.string(),
  hospitalId: Id,
  state: z.enum(['live', 'ended']),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  /** Those in the room now (leftAt null). */
  participants: z.array(ConsultParticipant),
});
export type Consult = z.infer<typeof Consult>;

// ---- routes' shapes ---------------------------------------------------------------------------------

export const ConsultCaseParams = z.object({ id: Id });
export const ConsultParams = z.object({ consultId: Id });

/**
 * `GET /notification/twiage-cases/{id}/room` (spec §7, §3 "Live consult room"): the case's room.
 * `roomId` is the live consult's id (null: none running); the spec's vendor's `authToken` was its video
 * service's token — here the user's own session authorises every call, and the ICE servers (with
 * short-lived TURN credentials) come with the join. `available`: the destination has liveConsult on.
 */
export const ConsultRoomResponse = z.object({
  roomId: Id.nullable(),
  consult: Consult.nullable(),
  available: z.boolean(),
});
export type ConsultRoomResponse = z.infer<typeof ConsultRoomResponse>;

export const JoinConsultBody = z.object({ caseId: Id });
export type JoinConsultBody = z.infer<typeof JoinConsultBody>;

/** The room after joining, this join's participant id and the ICE servers for this user. */
export const JoinConsultResponse = z.object({ consult: Consult, participantId: Id, ice: IceConfig });
export type JoinConsultResponse = z.infer<typeof JoinConsultResponse>;

/** A participant's own id: every call a participant makes names which of its joins it speaks for. */
export const ConsultParticipantBody = z.object({ participantId: Id });
export type ConsultParticipantBody = z.infer<typeof ConsultParticipantBody>;

export const ConsultSignalBody = z
  .object({
    from: Id,
    to: Id,
    description: SessionDescription.optional(),
    candidates: z.array(IceCandidate).max(20).optional(),
  })
  .refine((b) => b.description !== undefined || (b.candidates?.length ?? 0) > 0, {
    message: 'a signal carries a description or at least one candidate',
  });
export type ConsultSignalBody = z.infer<typeof ConsultSignalBody>;

export const ConsultResponse = z.object({ consult: Consult });
export type ConsultResponse = z.infer<typeof ConsultResponse>;

// ---- real-time messages ---------------------------------------------------------------------------

export const CONSULT_EVENTS = {
  joined: 'consult.joined',
  left: 'consult.left',
  ended: 'consult.ended',
  signal: 'consult.signal',
  updated: 'consult.updated',
} as const;

export const ConsultJoined = z.object({ consult: Consult, participant: ConsultParticipant });
export const ConsultLeft = z.object({ consult: Consult, participantId: Id });
export const ConsultSignal = z.object({
  consultId: Id,
  from: Id,
  to: Id,
  description: SessionDescription.optional(),
  candidates: z.array(IceCandidate).optional(),
});
export type ConsultSignal = z.infer<typeof ConsultSignal>;

const message = <T extends string, D extends z.ZodType>(type: T, data: D) => z.object({ type: z.literal(type), data });

export const ConsultChannelMessage = z.discriminatedUnion('type', [
  message(CONSULT_EVENTS.joined, ConsultJoined),
  message(CONSULT_EVENTS.left, ConsultLeft),
  message(CONSULT_EVENTS.ended, ConsultResponse),
  message(CONSULT_EVENTS.signal, ConsultSignal),
]);
export type ConsultChannelMessage = z.infer<typeof ConsultChannelMessage>;

/**
 * On `hospital:{id}` and on the case's own `case:{id}`: the room of the case changed (started, someone
 * joined or left, ended) — the console's case detail shows "Join", the crew is told the hospital is in
 * a consult it is not in.
 */
export const ConsultUpdatedMessages = [message(CONSULT_EVENTS.updated, ConsultResponse)] as const;

// ---- texts ----------------------------------------------------------------------------------------

/** Spec §4 / §8 consult texts word for word (messages.ts has the hospital ones), and ours. */
export const consultMessages = {
  waiting: 'Waiting for others to join...',
  // Ours
  full: `This live consult is full: a consult has at most ${CONSULT_MAX_PARTICIPANTS} participants. Ask someone to leave, then join again.`,
  tooManyJoins: 'This live consult has been joined too many times. End it and start a new one.',
  transferInProgress: 'A case transfer of this case is in progress. Finish or cancel it to start a live consult.',
  consultInProgress: 'End the live consult to start a call.',
  notAParticipant: 'You are not in this live consult. Join it first.',
  over: 'This live consult has ended.',
  caseClosed: 'The case is closed: the patient has arrived.',
  /** The crew's case screen while the hospital is in a consult of the case the crew is not in. */
  hospitalInConsult: (hospital: string) => `${hospital} is in a live consult on this case.`,
  join: 'Join Live Consult',
  notNow: 'Not now',
} as const;

export const consultRoutes = {
  consultRoom: {
    method: 'GET',
    path: '/notification/twiage-cases/:id/room',
    summary: "The case's live consult room (its id and who is in it) and whether its destination offers consults",
    auth: true,
    params: ConsultCaseParams,
    response: ConsultRoomResponse,
  },
  joinConsult: {
    method: 'POST',
    path: '/v4/consults',
    summary:
      "Join the case's live consult (starts its room when none runs): crew of the case, ED staff of its destination",
    auth: true,
    body: JoinConsultBody,
    response: JoinConsultResponse,
  },
  consultPresence: {
    method: 'POST',
    path: '/v4/consults/:consultId/presence',
    summary: 'A participant is still in the room (every few seconds); answers the room as it is',
    auth: true,
    params: ConsultParams,
    body: ConsultParticipantBody,
    response: ConsultResponse,
  },
  signalConsult: {
    method: 'POST',
    path: '/v4/consults/:consultId/signal',
    summary: 'A WebRTC offer, answer or ICE candidates from one participant of the consult to another',
    auth: true,
    params: ConsultParams,
    body: ConsultSignalBody,
    response: null,
  },
  leaveConsult: {
    method: 'POST',
    path: '/v4/consults/:consultId/leave',
    summary: 'A participant hangs up; the last one out ends the consult (recorded as a case event)',
    auth: true,
    params: ConsultParams,
    body: ConsultParticipantBody,
    response: ConsultResponse,
  },
  getConsult: {
    method: 'GET',
    path: '/v4/consults/:consultId',
    summary: 'The consult as it is now (readers of its case)',
    auth: true,
    params: ConsultParams,
    response: ConsultResponse,
  },
} as const satisfies Record<string, RouteDef>;
