/**
 * The case (spec §3 Case, §4 Case lifecycle and Case events, §7 case calls). Every change a crew makes
 * is one of these bodies, sent through the crew app's outbox with an Idempotency-Key, and recorded by
 * the server as an append-only case event.
 */
import { z } from 'zod';
import {
  AGE_MAX_BY_PERIOD,
  AGE_MIN,
  MONITOR_PATIENT_ID_DIGITS,
  PLACEHOLDER_ID_PREFIX,
  RATING_STARS,
  TEXT_MAX_LENGTH,
} from './constants.js';
import { GeoPoint, Id, TagFieldType } from './entities.js';
import { Arrival, Diversion, Handoff } from './arrival.js';

export const CaseType = z.enum(['emsED', 'hospitalED']);
export const Gender = z.enum(['M', 'F']);
export type Gender = z.infer<typeof Gender>;
export const AgePeriod = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** Timestamps from clients may carry an offset; the server stores them as UTC. */
const ClientDateTime = z.iso.datetime({ offset: true });

export const CASE_EVENT_TYPES = [
  'caseStarted',
  'age',
  'gender',
  'complaint',
  'tag',
  'dataEnabledTag',
  'chat',
  'chatmessage',
  'hospital',
  'photo',
  'id',
  'ekg',
  'video',
  'voicememo',
  'liveconsult',
  'monitor',
  'patientInfo',
  // Ours, beside §4's list: a position report, the arrival that closes the case, the crew's rating.
  'location',
  'arrived',
  'caseFeedback',
  // The destination ED marked the case as seen (hospital console).
  'acknowledged',
  // Issue 15: arrival at the destination, the ED's acceptance of the hand-over, a diversion.
  'arrivedAtDestination',
  'handoffAccepted',
  'diverted',
  // A voice call between the crew and the destination ED ended (issue 12): who, when, how long.
  'call',
  // The recording of a voice call, uploaded by the console that answered (issue 12).
  'callrecording',
  // A case transfer admitted, dismissed or handed the case to another crew.
  'transfer',
  // Team activation at the destination (issue 15, activation.ts).
  'teamActivated',
  'teamAcknowledged',
  'teamRealerted',
  'teamEscalated',
  'teamStoodDown',
] as const;
export const CaseEventType = z.enum(CASE_EVENT_TYPES);
export type CaseEventType = z.infer<typeof CaseEventType>;

export const TagFieldValue = z.object({
  key: z.string().min(1).max(64),
  value: z.string().max(1_000),
  name: z.string().max(200),
  type: TagFieldType,
});
export type TagFieldValue = z.infer<typeof TagFieldValue>;

/**
 * A tag field value as a client sends it: the spec leaves the value's type open, so a number field's
 * value may come as a JSON number (`98.6`) as well as a string (`"98.6"`); it is stored as the string.
 */
export const TagFieldValueInput = TagFieldValue.extend({
  value: z
    .union([z.string().max(1_000), z.number().finite()])
    .transform((v) => (typeof v === 'number' ? String(v) : v)),
});

export const TagValueEntry = z.object({ fields: z.array(TagFieldValue), updatedAt: z.iso.datetime() });
export type TagValueEntry = z.infer<typeof TagValueEntry>;

export const CaseTag = z.object({ id: Id, values: z.array(TagValueEntry) });
export type CaseTag = z.infer<typeof CaseTag>;

export const PatientInfoEntry = z.object({ key: z.string().min(1).max(64), value: z.string().max(TEXT_MAX_LENGTH) });
export type PatientInfoEntry = z.infer<typeof PatientInfoEntry>;

export const MonitorIntegration = z.object({ monitorId: Id, patientId: z.string(), type: z.string() });

export const MediaCounts = z.object({
  photo: z.number().int(),
  id: z.number().int(),
  ekg: z.number().int(),
  video: z.number().int(),
  voicememo: z.number().int(),
});

export const Case = z.object({
  id: Id,
  caseNumber: z.string(),
  channelId: z.string(),
  ownedBy: Id,
  type: CaseType,
  createdAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
  arrivedAt: z.iso.datetime().nullable(),
  destinationHospital: z.object({ id: Id }).nullable(),
  emsAgency: Id,
  truck: Id,
  complaint: Id.nullable(),
  complaintSet: z.string(),
  tags: z.array(CaseTag),
  age: z.number().int().nullable(),
  agePeriod: AgePeriod,
  gender: Gender.nullable(),
  uploads: z.array(z.object({ id: Id, type: z.string() })),
  monitorIntegration: MonitorIntegration.nullable(),
  patientInfo: z.array(PatientInfoEntry),
  mediaCounts: MediaCounts,
  lastLocation: GeoPoint.extend({ recordedAt: z.iso.datetime() }).nullable(),
  /** The destination ED's "seen": who (display name), which hospital (name), when; null until then. */
  acknowledgedBy: z.string().nullable().optional(),
  acknowledgedByHospital: z.string().nullable().optional(),
  acknowledgedAt: z.iso.datetime().nullable().optional(),
  /** Issue 15: arrival at the destination, the ED's acceptance of the hand-over, a pending diversion. */
  arrival: Arrival.nullable().optional(),
  handoff: Handoff.nullable().optional(),
  diversion: Diversion.nullable().optional(),
});
export type Case = z.infer<typeof Case>;

export const CreateCaseBody = z.object({ emsAgency: Id, truck: Id, beganAt: ClientDateTime });
export type CreateCaseBody = z.infer<typeof CreateCaseBody>;
export const CreateCaseResponse = Case.pick({
  id: true,
  caseNumber: true,
  channelId: true,
  ownedBy: true,
  createdAt: true,
});
export type CreateCaseResponse = z.infer<typeof CreateCaseResponse>;

/** The kinds of change a PATCH /v4/twiageCases/{id} carries; age travels with its agePeriod. */
export const PATCH_CASE_CHANGES = ['complaint', 'destinationHospital', 'gender', 'age', 'arrivedAt'] as const;
export type PatchCaseChange = (typeof PATCH_CASE_CHANGES)[number];

/**
 * PATCH /v4/twiageCases/{id} carries exactly one change (§7): complaint, destinationHospital, gender
 * (null clears), age with agePeriod (age null clears), or arrivedAt (closes the case). One object with
 * a refinement rather than a union, so a mistake gets a message naming it, not "invalid input".
 */
export const PatchCaseBody = z
  .strictObject({
    complaint: Id.optional(),
    /** The hospital's id, or the Case entity's shape `{ id }` (what a client written from §3 sends). */
    destinationHospital: z
      .union([Id, z.object({ id: Id })])
      .transform((v) => (typeof v === 'string' ? v : v.id))
      .optional(),
    gender: Gender.nullable().optional(),
    age: z
      .number()
      .int('age must be a whole number')
      .min(AGE_MIN, `age must be at least ${AGE_MIN}`)
      .nullable()
      .optional(),
    agePeriod: AgePeriod.optional(),
    arrivedAt: ClientDateTime.optional(),
  })
  .superRefine((body, ctx) => {
    const given = PATCH_CASE_CHANGES.filter((k) => body[k] !== undefined);
    if (body.agePeriod !== undefined && body.age === undefined) {
      ctx.addIssue({ code: 'custom', message: 'agePeriod is only sent with age', path: ['agePeriod'] });
      return;
    }
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `exactly one of ${PATCH_CASE_CHANGES.join(', ')} must be given (got ${given.length === 0 ? 'none' : given.join(', ')})`,
      });
      return;
    }
    if (body.age !== undefined && body.age !== null) {
      if (body.agePeriod === undefined) {
        ctx.addIssue({ code: 'custom', message: 'agePeriod is required with age', path: ['agePeriod'] });
      } else if (body.age > AGE_MAX_BY_PERIOD[body.agePeriod]) {
        ctx.addIssue({
          code: 'custom',
          message: `age must be from ${AGE_MIN} to ${AGE_MAX_BY_PERIOD[body.agePeriod]} for agePeriod ${body.agePeriod}`,
          path: ['age'],
        });
      }
    }
  });
export type PatchCaseBody = z.infer<typeof PatchCaseBody>;

export const LocationUpdateBody = GeoPoint.extend({
  // Metres; a fix worse than 100 km says nothing about where the ambulance is (1e308 was accepted).
  accuracy: z.number().nonnegative().max(100_000).optional(),
  recordedAt: ClientDateTime.optional(),
});
export type LocationUpdateBody = z.infer<typeof LocationUpdateBody>;

export const TagQuery = z.object({ tagId: Id });
export const TagParams = z.object({ id: Id, tagId: Id });
export const TagValuesBody = z.object({
  fields: z.array(TagFieldValueInput).min(1, 'fields must not be empty').max(50),
});
export type TagValuesBody = z.infer<typeof TagValuesBody>;

export const DynamicFormBody = z.object({ fields: z.array(PatientInfoEntry).max(100) });
export const DynamicFormParams = z.object({ id: Id, formId: Id });
export type DynamicFormBody = z.infer<typeof DynamicFormBody>;

export const MonitorIntegrationBody = z.object({
  monitorId: Id,
  patientId: z
    .string()
    .regex(
      new RegExp(`^\\d{1,${MONITOR_PATIENT_ID_DIGITS}}$`),
      `patientId must be 1 to ${MONITOR_PATIENT_ID_DIGITS} digits`,
    ),
});
export const MonitorParams = z.object({ type: z.string().min(1).max(64), caseId: Id });
export const MonitorIntegrationResponse = z.object({ monitorIntegration: MonitorIntegration });

export const CaseFeedbackBody = z.object({
  rating: z.number().int().min(1).max(RATING_STARS),
  notes: z.string().max(TEXT_MAX_LENGTH).default(''),
  type: z.literal('ems'),
});
export type CaseFeedbackBody = z.infer<typeof CaseFeedbackBody>;

export const CaseFeedbackResponse = z.object({ id: Id });

export const CaseParams = z.object({ id: Id });

/**
 * POST /v4/twiageCases?{placeholderId}: the client's placeholder id travels as a bare query key
 * (`?placeholder-1732200000000`) or as `?placeholderId=placeholder-…`; both are accepted.
 */
export const CreateCaseQuery = z.record(z.string().max(100), z.string().max(100));
export function placeholderIdFromQuery(query: Record<string, string>): string | null {
  if (query.placeholderId) return query.placeholderId;
  return Object.keys(query).find((k) => k.startsWith(PLACEHOLDER_ID_PREFIX)) ?? null;
}

/** GET /v4/twiageCases/{id}?uniquevalue&rawDataEnabledTags=true: a cache-buster and a flag; values are always raw. */
export const GetCaseQuery = z.record(z.string().max(100), z.string().max(100));

/** What a case write answers: the event it recorded, or null when the change was a no-op (same value). */
export const CaseChangeResponse = z.object({
  id: Id,
  event: z.object({ id: Id, seq: z.number().int(), type: CaseEventType, createdAt: z.iso.datetime() }).nullable(),
});
export type CaseChangeResponse = z.infer<typeof CaseChangeResponse>;

/** Every case write carries one: a UUID-like string (letters, digits, dashes) of at most 100 characters. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9-]{8,100}$/;
