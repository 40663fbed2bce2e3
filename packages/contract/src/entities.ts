/** The entities of spec §3 as zod schemas. The wire shape keeps the spec's field names (`_id` and `id`). */
import { z } from 'zod';
import { HospitalCapabilities } from './hospital-capabilities.js';
import { NAME_MAX_LENGTH } from './constants.js';

export const Id = z.string().min(1).max(64);

export const Feature = z.object({ name: z.string(), enabled: z.boolean() });
export type Feature = z.infer<typeof Feature>;

export const IdRef = z.object({ _id: Id });

export const UserRole = z.enum(['crew', 'edStaff', 'orgAdmin']);
export type UserRole = z.infer<typeof UserRole>;

export const User = z.object({
  id: Id,
  _id: Id,
  username: z.string(),
  email: z.string().nullable(),
  displayName: z.string(),
  features: z.array(Feature),
  emsAgencyMemberships: z.array(IdRef),
  emsAgenciesAdministered: z.array(IdRef),
  /** Our addition for the hospital console: the hospitals whose ED this user staffs, and their roles. */
  hospitalMemberships: z.array(IdRef),
  roles: z.array(UserRole),
  /**
   * Our addition: signed in with a one-time password from an administrator (an invitation or a reset);
   * every call but this one, sign-out and POST /v4/users/password answers 403 until it is changed.
   */
  mustChangePassword: z.boolean().optional(),
});
export type User = z.infer<typeof User>;

export const AuthToken = z.object({ token: z.string(), expirationDate: z.iso.datetime() });
export type AuthToken = z.infer<typeof AuthToken>;

export const EdPhoneNumber = z.object({ name: z.string(), phoneNumber: z.string() });
export const StatusPriority = z.enum(['critical', 'urgent']);
export type StatusPriority = z.infer<typeof StatusPriority>;

export const HospitalStatus = z.object({
  _id: Id,
  status: z.string(),
  priority: StatusPriority,
  setAt: z.iso.datetime(),
});
export type HospitalStatus = z.infer<typeof HospitalStatus>;

export const GeoPoint = z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) });
export type GeoPoint = z.infer<typeof GeoPoint>;

export const Hospital = z.object({
  _id: Id,
  id: Id,
  name: z.string(),
  nonTwiage: z.boolean(),
  statusChannelId: z.string(),
  edPhoneNumbers: z.array(EdPhoneNumber),
  activeStatuses: z.array(HospitalStatus),
  supportedFeatures: z.array(Feature),
  /** Our addition: where the ED is, for distance and ETA on the console. */
  location: GeoPoint.nullable(),
  /** Ours (issue 15): stroke centre level, PCI, trauma level — the crew's destination advice. */
  capabilities: HospitalCapabilities.optional(),
});
export type Hospital = z.infer<typeof Hospital>;

export const Monitor = z.object({ _id: Id, name: z.string(), type: z.string() });
export type Monitor = z.infer<typeof Monitor>;

export const EmtLevel = z.object({ name: z.string() });

export const PatientInfoField = z.object({
  key: z.string(),
  name: z.string(),
  /** text, date and multiline_text are shown; any other type is ignored by the crew app (§3). */
  type: z.string(),
});
export type PatientInfoField = z.infer<typeof PatientInfoField>;

export const PatientInfoForm = z.object({
  id: Id,
  title: z.string(),
  subtitle: z.string(),
  fields: z.array(PatientInfoField),
});
export type PatientInfoForm = z.infer<typeof PatientInfoForm>;

export const DynamicForm = PatientInfoForm.extend({ _id: Id, type: z.string() });
export type DynamicForm = z.infer<typeof DynamicForm>;

export const Team = z.object({
  id: Id,
  _id: Id,
  name: z.string(),
  hospitals: z.array(Hospital),
  /** The name of the team's complaint set, used with GET /v4/complaintSets?name=. */
  complaintSet: z.string(),
  /** Minutes after creation when an emsED/hospitalED case closes by itself. */
  maxCaseLength: z.number().int().positive(),
  monitors: z.array(Monitor),
  dynamicForms: z.array(DynamicForm),
  patientInfoForm: PatientInfoForm.nullable(),
  codeVital: z.object({ emtLevels: z.array(EmtLevel) }),
});
export type Team = z.infer<typeof Team>;

export const Truck = z.object({ id: Id, _id: Id, name: z.string(), isALS: z.boolean() });
export type Truck = z.infer<typeof Truck>;

export const TagFieldType = z.enum(['number', 'text', 'date', 'datetime']);
export type TagFieldType = z.infer<typeof TagFieldType>;
export const TagField = z.object({
  key: z.string(),
  name: z.string(),
  type: TagFieldType,
  unit: z.string().optional(),
});
export type TagField = z.infer<typeof TagField>;

export const DATA_ENABLED_CATEGORY = 'data-enabled';

export const Tag = z.object({
  id: Id,
  name: z.string(),
  /** Tags sharing a group identifier are mutually exclusive: choosing one swaps out the other. */
  groupIdentifier: z.string().nullable(),
  category: z.string().nullable(),
  data: z.array(TagField),
});
export type Tag = z.infer<typeof Tag>;

export const Section = z.object({ id: Id, name: z.string(), tags: z.array(Tag) });
export type Section = z.infer<typeof Section>;

export const HexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'a colour must be #RRGGBB');

/** NEMSIS 3.5 eDisposition.24 "Destination Team Pre-Arrival Alert or Activation" codes. */
export const NemsisPreArrivalAlert = z.enum([
  '4224001', // No
  '4224003', // Yes-Adult Trauma
  '4224005', // Yes-Cardiac Arrest
  '4224007', // Yes-Obstetrics
  '4224009', // Yes-Other
  '4224011', // Yes-Pediatric Trauma
  '4224013', // Yes-STEMI
  '4224015', // Yes-Stroke
  '4224017', // Yes-Trauma (General)
  '4224019', // Yes-Sepsis
]);
export type NemsisPreArrivalAlert = z.infer<typeof NemsisPreArrivalAlert>;

export const Complaint = z.object({
  id: Id,
  name: z.string().min(1).max(NAME_MAX_LENGTH),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  color: HexColor,
  nemsisPreArrivalAlert: NemsisPreArrivalAlert.nullable(),
  sections: z.array(Section),
});
export type Complaint = z.infer<typeof Complaint>;

export const ComplaintSet = z.object({
  _id: Id,
  name: z.string(),
  version: z.number().int().positive(),
  complaints: z.array(Complaint),
});
export type ComplaintSet = z.infer<typeof ComplaintSet>;

export const BroadcastMessage = z.object({
  _id: Id,
  timestamp: z.iso.datetime(),
  content: z.string(),
  urgent: z.boolean(),
  /** 'emsDispatch' carries a caseNumber the crew can load; null for an ordinary broadcast. */
  type: z.enum(['emsDispatch']).nullable(),
  caseNumber: z.string().nullable(),
  senderOrganizationName: z.string(),
  /** The agencies it was sent to. */
  emsAgencies: z.array(Id),
  /** An emsDispatch the hospital cancelled before a crew loaded it (ours; absent on older servers). */
  cancelledAt: z.iso.datetime().nullable().optional(),
});
export type BroadcastMessage = z.infer<typeof BroadcastMessage>;
