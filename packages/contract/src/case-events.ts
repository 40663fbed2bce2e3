/**
 * Every kind of case event the server records (`case_events`, append-only, one per change of a case)
 * with its payload. The server writes them only through the cases module and announces each one on the
 * real-time channels (see realtime-messages.ts), so a client can apply the change to what it holds
 * instead of reading the case again. `type` is the spec's §4 event name where it has one.
 */
import { z } from 'zod';
import { type CaseEventType, AgePeriod, Gender, MonitorIntegration, PatientInfoEntry, TagFieldValue } from './case.js';
import { Id } from './entities.js';
import { CallOutcome } from './calls.js';
import { MediaType } from './media.js';
import { ArrivalSource } from './arrival.js';
import { TeamKind, TeamMember } from './activation.js';

const At = z.iso.datetime({ offset: true });

/** A media item recorded with the case (photo, id, ekg, video, voicememo): the same payload for each. */
const MediaAdded = z.object({
  uploadId: Id,
  type: MediaType,
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});

const variant = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({ type: z.literal(type), payload });

/** The case events, by `type`. */
export const CaseEvent = z.discriminatedUnion('type', [
  /** The case began: a crew started it (POST /v4/twiageCases) or claimed a hospital's dispatch. */
  variant(
    'caseStarted',
    z.object({
      caseNumber: z.string(),
      emsAgency: Id,
      truck: Id,
      beganAt: At,
      placeholderId: z.string().nullable(),
      complaintSet: Id,
      /** A dispatched case (claimed from the Message Center): the dispatch and the hospital that sent it. */
      dispatchId: Id.optional(),
      dispatchedBy: Id.optional(),
    }),
  ),
  variant('complaint', z.object({ complaint: Id, previous: Id.nullable(), at: At.optional() })),
  /** Tags are selected and unselected one at a time; a selection names the complaint it belongs to. */
  variant(
    'tag',
    z.discriminatedUnion('action', [
      z.object({ tagId: Id, action: z.literal('added'), complaint: Id }),
      z.object({ tagId: Id, action: z.literal('removed') }),
    ]),
  ),
  /** One save of a data-enabled tag's values (every save is kept; the newest is current). */
  variant('dataEnabledTag', z.object({ tagId: Id, fields: z.array(TagFieldValue) })),
  variant('age', z.object({ age: z.number().int().nullable(), agePeriod: AgePeriod })),
  variant('gender', z.object({ gender: Gender.nullable() })),
  variant('patientInfo', z.object({ formId: Id, fields: z.array(PatientInfoEntry) })),
  /** The destination hospital; `nonTwiage`: a hospital not on the platform (it gets no case data). */
  variant(
    'hospital',
    z.object({
      destinationHospital: Id,
      previous: Id.nullable(),
      nonTwiage: z.boolean(),
      at: At.optional(),
      /** The new destination's name, so the previous hospital's board can say "diverted to …". */
      destinationName: z.string().optional(),
    }),
  ),
  /** A position report of the ambulance. */
  variant(
    'location',
    z.object({
      latitude: z.number(),
      longitude: z.number(),
      accuracy: z.number().nullable(),
      recordedAt: At,
    }),
  ),
  variant('monitor', MonitorIntegration),
  variant('photo', MediaAdded),
  variant('id', MediaAdded),
  variant('ekg', MediaAdded),
  variant('video', MediaAdded),
  variant('voicememo', MediaAdded),
  /**
   * The recording of a voice call, uploaded by the console that answered it (issue 12): which call, and
   * `partial` when that console closed mid-call and sent what it had kept at its next start (decision 0042).
   */
  variant('callrecording', MediaAdded.extend({ callId: Id, partial: z.literal(true).optional() })),
  /** The patient arrived: the case is closed. */
  variant('arrived', z.object({ arrivedAt: At })),
  /** The crew's rating of the hand-over (allowed after the case is closed). */
  variant('caseFeedback', z.object({ rating: z.number().int(), notes: z.string(), type: z.literal('ems') })),
  /** The destination ED marked the case as seen: who (display name), at which hospital. */
  variant('acknowledged', z.object({ hospitalId: Id, byName: z.string(), hospitalName: z.string() })),
  /**
   * The truck reached its destination (issue 15): by the hospital's geofence, the crew's close or the
   * ED's "Arrived". Recorded once per destination; the offload ("wall") time runs from `at`.
   */
  variant(
    'arrivedAtDestination',
    z.object({ hospitalId: Id, at: At, source: ArrivalSource, byName: z.string().nullable() }),
  ),
  /** The destination ED accepted transfer of care: the offload time ends. */
  variant('handoffAccepted', z.object({ hospitalId: Id, byName: z.string(), at: At })),
  /** The destination ED diverted the case: the crew is to choose another destination. */
  variant('diverted', z.object({ hospitalId: Id, hospitalName: z.string(), reason: z.string(), byName: z.string() })),
  /** A voice call with the destination ED ended (calls.ts): who called, who answered, when, how long, how. */
  variant(
    'call',
    z.object({
      callId: Id,
      hospitalId: Id,
      callerName: z.string(),
      answeredByName: z.string().nullable(),
      startedAt: At,
      answeredAt: At.nullable(),
      endedAt: At,
      durationSeconds: z.number().int().nonnegative(),
      outcome: CallOutcome,
      recorded: z.boolean(),
    }),
  ),
  /**
   * A live video consult of the case ended (consults.ts; spec §4 event name): who took part, when they
   * joined and left, how long the room ran. Recorded once, when the last participant leaves.
   */
  variant(
    'liveconsult',
    z.object({
      consultId: Id,
      hospitalId: Id,
      startedAt: At,
      endedAt: At,
      durationSeconds: z.number().int().nonnegative(),
      participants: z
        .array(
          z.object({
            name: z.string(),
            side: z.enum(['crew', 'hospital']),
            joinedAt: At,
            leftAt: At,
          }),
        )
        .max(40),
    }),
  ),
  /**
   * A case transfer (spec §4) changed who holds the case: the receiving crew may read it (accepted),
   * may no longer (the transfer ended before it was done), or owns it now and the sender left (done).
   */
  variant(
    'transfer',
    z.discriminatedUnion('action', [
      z.object({ action: z.literal('receiverAdmitted'), transferId: Id, receiver: Id }),
      z.object({ action: z.literal('receiverDismissed'), transferId: Id, receiver: Id }),
      z.object({ action: z.literal('handedOver'), transferId: Id, from: Id, to: Id }),
    ]),
  ),
  /** The destination ED activated one of its teams (activation.ts): the members it alerted. */
  variant(
    'teamActivated',
    z.object({
      activationId: Id,
      hospitalId: Id,
      teamId: Id,
      kind: TeamKind,
      teamName: z.string(),
      byName: z.string(),
      members: z.array(TeamMember),
    }),
  ),
  /** A member answered "on my way". */
  variant(
    'teamAcknowledged',
    z.object({
      activationId: Id,
      kind: TeamKind,
      teamName: z.string(),
      userId: Id,
      name: z.string(),
      backup: z.boolean(),
    }),
  ),
  /** The members who had not acknowledged were alerted again (round 2, 3, …). */
  variant(
    'teamRealerted',
    z.object({ activationId: Id, kind: TeamKind, round: z.number().int(), userIds: z.array(Id) }),
  ),
  /** Nobody answered in time: the team's backups were alerted. */
  variant('teamEscalated', z.object({ activationId: Id, kind: TeamKind, backups: z.array(TeamMember) })),
  /** The ED stood the team down: the activation is over. */
  variant('teamStoodDown', z.object({ activationId: Id, kind: TeamKind, teamName: z.string(), byName: z.string() })),
]);
export type CaseEvent = z.infer<typeof CaseEvent>;
export type CaseEventOf<T extends CaseEvent['type']> = Extract<CaseEvent, { type: T }>;
export type CaseEventPayload<T extends CaseEvent['type']> = CaseEventOf<T>['payload'];

/** What the log adds to every event: its id, its number in the case (1, 2, …), who and when. */
export const CaseEventMeta = z.object({
  id: Id,
  caseId: Id,
  seq: z.number().int().positive(),
  createdAt: At,
  /** When the crew's device made the change (it may have been offline), if it said. */
  clientCreatedAt: At.nullable(),
  /** The user who made the change. */
  actorUserId: Id.nullable(),
});
export type CaseEventMeta = z.infer<typeof CaseEventMeta>;

/** A case event as recorded: the log's fields and the event. */
export const RecordedCaseEvent = z.intersection(CaseEventMeta, CaseEvent);
export type RecordedCaseEvent = CaseEventMeta & CaseEvent;

/** Every kind of case event, by name (no string literal of a kind is repeated across server and apps). */
export const CASE_EVENTS = Object.fromEntries(
  CaseEvent.options.map((o) => [o.shape.type.value, o.shape.type.value]),
) as {
  readonly [T in CaseEvent['type']]: T;
};

/** The media kinds of case events (an upload recorded with the case). */
export const MEDIA_CASE_EVENTS = [
  'photo',
  'id',
  'ekg',
  'video',
  'voicememo',
  'callrecording',
] as const satisfies readonly (CaseEvent['type'] & MediaType)[];

export function isMediaCaseEvent(event: CaseEvent): event is CaseEventOf<MediaType> {
  return (MEDIA_CASE_EVENTS as readonly string[]).includes(event.type);
}

/** Every recorded kind is one of the wire's `CaseEventType`s (which also lists §4 kinds not recorded yet). */
const recordedKindsAreEventTypes: readonly CaseEventType[] = Object.values(CASE_EVENTS);
void recordedKindsAreEventTypes;
