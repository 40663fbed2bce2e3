/**
 * The tables as Kysely sees them. Portable across SQLite and PostgreSQL: timestamps are ISO-8601 UTC
 * text (they sort and compare as strings), JSON is text, booleans are integers 0/1. Repositories turn
 * rows into the contract's shapes, so nothing above them sees these storage choices.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { ProtocolTables } from '../modules/protocols/protocols.schema.js';
import type { ActivationTables } from '../modules/activation/activation.schema.js';
import type { ChargeNurseTables } from '../modules/charge-nurse/charge-nurse.schema.js';
import type { HandoffWatchTables } from '../modules/handoff-watch/handoff-watch.schema.js';
import type { WebAuthnTables } from '../modules/auth/webauthn.schema.js';

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: sign-in is case-insensitive and usernames are unique regardless of case. */
  username_key: string;
  email: string | null;
  email_key: string | null;
  display_name: string;
  password_hash: string;
  disabled: number;
  /** JSON: [{ name, enabled }] */
  features: string;
  /** JSON: UserRole[] */
  roles: string;
  created_at: string;
  updated_at: string;
  /** 1: signed in with an admin's one-time password, which must be changed before anything else. */
  must_change_password: Generated<number>;
  /** When the one-time password (must_change_password = 1) stops working; null otherwise. */
  one_time_password_expires_at?: string | null;
  /** TOTP (migration 20261125_1310_mfa): the confirmed secret (base32), one being set up, when it was confirmed. */
  totp_secret?: string | null;
  totp_pending_secret?: string | null;
  totp_enrolled_at?: string | null;
  /** The time step of the last accepted code: a code is never accepted twice. */
  totp_last_step?: number | null;
}

export interface AgencyMembersTable {
  agency_id: string;
  user_id: string;
  role: 'member' | 'admin';
}

export interface HospitalStaffTable {
  hospital_id: string;
  user_id: string;
}

export interface AgenciesTable {
  id: string;
  name: string;
  complaint_set_name: string;
  max_case_length: number;
  /** JSON: [{ name }] */
  emt_levels: string;
  created_at: string;
  updated_at: string;
}

export interface AgencyHospitalsTable {
  agency_id: string;
  hospital_id: string;
  position: number;
}

export interface TrucksTable {
  id: string;
  agency_id: string;
  name: string;
  is_als: number;
  position: number;
  /** When an admin removed it while past cases named it: no longer offered to crews. */
  retired_at: string | null;
}

export interface MonitorsTable {
  id: string;
  agency_id: string;
  name: string;
  type: string;
  position: number;
}

export interface FormsTable {
  id: string;
  type: string;
  title: string;
  subtitle: string;
  /** JSON: [{ key, name, type }] */
  fields: string;
}

export interface AgencyFormsTable {
  agency_id: string;
  form_id: string;
  position: number;
}

export interface HospitalsTable {
  id: string;
  name: string;
  non_twiage: number;
  status_channel_id: string;
  /** JSON: [{ name, phoneNumber }] */
  ed_phone_numbers: string;
  /** JSON: [{ name, enabled }] */
  supported_features: string;
  latitude: number | null;
  longitude: number | null;
  created_at: string;
  updated_at: string;
  /** Destination advice (issue 15): StrokeCenterLevel or null, PCI 0/1, trauma level 1–5 or null. */
  stroke_center?: string | null;
  pci?: Generated<number>;
  trauma_level?: number | null;
}

export interface HospitalStatusesTable {
  id: string;
  hospital_id: string;
  status: string;
  priority: 'critical' | 'urgent';
  set_at: string;
  cleared_at: string | null;
}

export interface ComplaintSetsTable {
  id: string;
  name: string;
  version: number;
  /** JSON: Complaint[] — a set is published as a whole and read as a whole. */
  complaints: string;
  created_at: string;
}

export interface BroadcastsTable {
  id: string;
  content: string;
  urgent: number;
  type: 'emsDispatch' | null;
  case_number: string | null;
  sender_organization_name: string;
  created_at: string;
  /** The hospital it was sent for, and who sent it (null on rows from before these were kept). */
  hospital_id: string | null;
  sent_by: string | null;
  sent_by_name: string | null;
  /** An emsDispatch whose dispatch the hospital cancelled (nobody had claimed it). */
  cancelled_at?: string | null;
}

export interface BroadcastAgenciesTable {
  broadcast_id: string;
  agency_id: string;
}

export interface BroadcastIdempotencyKeysTable {
  user_id: string;
  key: string;
  broadcast_id: string;
  /** sha-256 of method, URL and body. */
  request_hash: string;
  /** JSON: the body first answered. */
  response: string;
  created_at: string;
}

export interface SessionsTable {
  jti: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** e.g. "ems/web": which client the token was issued to. */
  client: string;
  /** When the session passed the second factor (TOTP or a recovery code); null: password only. */
  mfa_at?: string | null;
}

export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  /** argon2id of the code; the code itself is shown once and never stored. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** The organisation's settings, one JSON value per key (mfaRequired). */
export interface OrgSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface SignInThrottleTable {
  account_key: string;
  failures: number;
  window_started_at: string;
  last_failed_at: string | null;
}

export interface KnownSignInsTable {
  user_id: string;
  address: string;
  last_signed_in_at: string;
}

export interface FeedbackTable {
  id: string;
  user_id: string;
  message: string;
  client: string;
  client_version: string;
  created_at: string;
}

export interface CasesTable {
  id: string;
  case_number: string;
  placeholder_id: string | null;
  type: 'emsED' | 'hospitalED';
  owned_by: string;
  agency_id: string;
  truck_id: string;
  /** The complaint-set version the case was started with; complaints and tags are checked against it. */
  complaint_set_id: string;
  complaint_set_name: string;
  complaint_id: string | null;
  destination_hospital_id: string | null;
  age: number | null;
  age_period: number;
  gender: 'M' | 'F' | null;
  monitor_id: string | null;
  monitor_patient_id: string | null;
  monitor_type: string | null;
  /** JSON: [{ key, value }] of the patient info form */
  patient_info: string;
  last_latitude: number | null;
  last_longitude: number | null;
  last_location_at: string | null;
  began_at: string;
  created_at: string;
  closed_at: string | null;
  arrived_at: string | null;
  updated_at: string;
  /** The seq of the case's last event. */
  version: number;
  /** The destination ED's acknowledgement ("seen"): which hospital, who (id and name then), when. */
  acknowledged_hospital_id: string | null;
  acknowledged_by: string | null;
  acknowledged_by_name: string | null;
  acknowledged_at: string | null;
  /** Issue 15: arrival at the current destination (geofence, crew's close, ED's button). */
  destination_arrived_at: string | null;
  destination_arrival_source: 'geofence' | 'crew' | 'hospital' | null;
  destination_arrived_by_name: string | null;
  /** The first position inside the destination's geofence of the visit not yet an arrival (hysteresis). */
  geofence_entered_at: string | null;
  handoff_at: string | null;
  handoff_by: string | null;
  handoff_by_name: string | null;
  /** A pending diversion by the destination ED (cleared when the destination changes). */
  diverted_at: string | null;
  diverted_by_name: string | null;
  diversion_reason: string | null;
  diverted_hospital_id: string | null;
}

export interface HospitalArrivalSettingsTable {
  hospital_id: string;
  arrival_radius_m: number;
  offload_alert_minutes: number;
  updated_at: string;
}

export interface CaseDestinationChangesTable {
  id: string;
  case_id: string;
  from_hospital_id: string;
  to_hospital_id: string;
  to_hospital_name: string;
  reason: string | null;
  at: string;
}

export interface CaseEventsTable {
  id: string;
  case_id: string;
  /** 1, 2, 3… per case: the order the events were committed in. */
  seq: number;
  type: string;
  actor_user_id: string;
  /** Server time of the write. */
  created_at: string;
  /** The client's Created-At header, when it sent a valid one (when the crew made the change). */
  client_created_at: string | null;
  /** JSON: the change. */
  payload: string;
}

export interface CaseAccessTable {
  case_id: string;
  user_id: string;
  /** 'owner' now; 'transferee' when the case-transfer issue lands. */
  role: string;
  granted_at: string;
}

export interface CaseTagsTable {
  case_id: string;
  tag_id: string;
  complaint_id: string;
  group_identifier: string | null;
  added_at: string;
  /** The seq of the event that selected it: tags are listed in the order they were chosen. */
  seq: number;
}

export interface CaseTagValuesTable {
  id: string;
  case_id: string;
  tag_id: string;
  /** JSON: [{ key, value, name, type }] */
  fields: string;
  updated_at: string;
  seq: number;
}

export interface CaseIdempotencyKeysTable {
  user_id: string;
  key: string;
  case_id: string;
  /** sha-256 of method, URL and body. */
  request_hash: string;
  status: number;
  /** JSON: the body first answered. */
  response: string;
  created_at: string;
}

export interface CaseFeedbackTable {
  id: string;
  case_id: string;
  user_id: string;
  rating: number;
  notes: string;
  type: string;
  created_at: string;
}

export interface CaseMediaTable {
  id: string;
  case_id: string;
  /** photo | id | ekg | video | voicememo | callrecording */
  type: string;
  /** processing | ready | failed */
  status: string;
  event_id: string;
  uploaded_by: string;
  /** Media-store key of the bytes as sent, and their sniffed type. */
  original_key: string;
  original_content_type: string;
  original_size: number;
  /** Media-store key of what the hospital plays (`{eventType}.jpeg|.mp4|.mp3`), once converted. */
  output_key: string | null;
  output_content_type: string | null;
  output_size: number | null;
  duration_ms: number | null;
  /** Why the conversion failed (ffmpeg's reason, never patient data). */
  failure: string | null;
  created_at: string;
  converted_at: string | null;
  /** A `callrecording`: the call it recorded (one recording per call). */
  call_id: string | null;
  /** A `callrecording` cut short: 1 when its console closed mid-call (decision 0042); null otherwise. */
  partial: number | null;
}

export interface RealtimeChannelsTable {
  channel: string;
  /** The last sequence number handed out on the channel. */
  seq: number;
  updated_at: string;
}

export interface RealtimeMessagesTable {
  channel: string;
  seq: number;
  /** JSON: the RealtimeEvent. */
  event: string;
  created_at: string;
  /** Set for a message published from an outbox (the case event's id): unique per channel. */
  dedupe_key?: string | null;
}

/** A case event whose real-time messages are not yet all stored and handed out. */
export interface CaseOutboxTable {
  event_id: string;
  case_id: string;
  seq: number;
  created_at: string;
}

/** A voice call of a case (issue 12). */
export interface CallsTable {
  id: string;
  case_id: string;
  hospital_id: string;
  state: 'ringing' | 'connected' | 'ended';
  caller_user_id: string;
  caller_name: string;
  answered_by_user_id: string | null;
  answered_by_name: string | null;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  outcome: string | null;
  recording: number;
  /** The last time a party of the connected call said it was still in it (POST …/alive). */
  alive_at: string | null;
}

/** A live video consult of a case (issue 12). */
export interface ConsultsTable {
  id: string;
  case_id: string;
  hospital_id: string;
  state: 'live' | 'ended';
  started_at: string;
  ended_at: string | null;
  joins: number;
}

/** One join of a consult's room. */
export interface ConsultParticipantsTable {
  id: string;
  consult_id: string;
  user_id: string;
  name: string;
  seq: number;
  side: 'crew' | 'hospital';
  joined_at: string;
  last_seen_at: string;
  left_at: string | null;
}

/** A message for `case:{id}` that is not a case event (chat, receipt, conversion), not yet handed out. */
export interface CaseOutboxMessagesTable {
  /** Also the message's dedupe key: relayed twice, it is stored once. */
  id: string;
  case_id: string;
  /** The contract's `CaseChannelMessage`, as JSON. */
  message: string;
  created_at: string;
}

/** Who relays an outbox now (one relay at a time across processes), until when (epoch ms). */
export interface OutboxLeasesTable {
  name: string;
  holder: string | null;
  expires_at: number | string;
}

export interface ChatMessagesTable {
  id: string;
  case_id: string;
  /** 1, 2, 3… per case: the conversation's order. */
  seq: number;
  sender_id: string;
  sender_name: string;
  sender_organization: string;
  sender_side: 'crew' | 'hospital';
  source: string;
  device_id: string;
  type: 'CHAT' | 'VOICE_MEMO';
  content: string;
  media_id: string | null;
  /** Seconds, for a voice memo. */
  length: number | null;
  /** The sender's clock (§7 `timestamp`). */
  client_timestamp: string;
  client_created_at: string;
  created_at: string;
  delivered_at: string | null;
  read_at: string | null;
  idempotency_key: string;
  request_hash: string;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  /** user-{id} | ems-{caseId} */
  topic: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

export interface CaseTransfersTable {
  id: string;
  case_id: string;
  code: string;
  /** The code while the transfer is live, else null (unique among live transfers). */
  live_code: string | null;
  /** The case id while the transfer is live, else null (one live transfer per case). */
  live_case_id: string | null;
  status: 'open' | 'done' | 'cancelled' | 'expired';
  created_by: string;
  ems_agency_id: string;
  request_status: 'open' | 'accepted' | 'received' | 'denied' | 'cancelled' | 'done' | null;
  request_user_id: string | null;
  request_agency_id: string | null;
  request_truck_id: string | null;
  cancel_reason: 'user' | 'timeout' | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A case a hospital dispatched to an agency; `case_id` is set when a crew claims it (the case is made then). */
export interface CaseDispatchesTable {
  id: string;
  case_number: string;
  hospital_id: string;
  agency_id: string;
  /** The agency's complaint set when dispatched: the case starts with it. */
  complaint_set_id: string;
  complaint_set_name: string;
  complaint_id: string | null;
  notes: string;
  urgent: number;
  broadcast_id: string;
  created_by: string;
  created_by_name: string;
  created_at: string;
  case_id: string | null;
  claimed_by: string | null;
  claimed_at: string | null;
  /** Cancelled by the hospital before any crew claimed it. */
  cancelled_at?: string | null;
  cancelled_by_name?: string | null;
}

export interface CaseReadAuditTable {
  id: string;
  case_id: string;
  user_id: string;
  hospital_id: string;
  /** board: listed on the board; detail: opened; media, chat, feedback: that part of the case read. */
  access: 'board' | 'detail' | 'media' | 'chat' | 'feedback';
  read_at: string;
  /** Hash chain (modules/audit/audit-chain.ts); null only before the row is chained. */
  chain: string | null;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

export interface AdminAuditTable {
  id: string;
  at: string;
  actor_id: string;
  /** The actor's display name at the time. */
  actor_name: string;
  /** e.g. user.invite, user.disable, agency.update */
  action: string;
  /** e.g. user, agency, hospital, complaintSet */
  entity_type: string;
  entity_id: string;
  summary: string;
  /** JSON of the entity before / after the change; null for a creation / deletion. */
  before: string | null;
  after: string | null;
  /** Hash chain (modules/audit/audit-chain.ts); null only before the row is chained. */
  chain: string | null;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

/** Sign-ins, sign-outs, password and MFA changes and case changes (migration 20261125_1300_audit_chain). */
export interface SecurityAuditTable {
  id: string;
  at: string;
  actor_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  case_id: string | null;
  /** JSON of ids and codes only. */
  detail: string | null;
  chain: string | null;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

export interface AuditChainHeadsTable {
  chain: string;
  seq: number;
  hash: string;
  /** Scratch of PostgreSQL's one-statement case write (migration 20261208_0100); other writes leave it. */
  prev_hash: string | null;
}

/** One row: bumped by triggers on every write to reference data (migration 20261125_0940). */
export interface ReferenceVersionTable {
  id: number;
  /** bigint: PostgreSQL answers it as a string. */
  version: number | string;
}

export interface DB extends ProtocolTables, ActivationTables, WebAuthnTables, ChargeNurseTables, HandoffWatchTables {
  reference_version: ReferenceVersionTable;
  users: UsersTable;
  agency_members: AgencyMembersTable;
  hospital_staff: HospitalStaffTable;
  agencies: AgenciesTable;
  agency_hospitals: AgencyHospitalsTable;
  trucks: TrucksTable;
  monitors: MonitorsTable;
  forms: FormsTable;
  agency_forms: AgencyFormsTable;
  hospitals: HospitalsTable;
  hospital_statuses: HospitalStatusesTable;
  complaint_sets: ComplaintSetsTable;
  broadcasts: BroadcastsTable;
  broadcast_agencies: BroadcastAgenciesTable;
  broadcast_idempotency_keys: BroadcastIdempotencyKeysTable;
  sessions: SessionsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  org_settings: OrgSettingsTable;
  sign_in_throttle: SignInThrottleTable;
  known_sign_ins: KnownSignInsTable;
  feedback: FeedbackTable;
  cases: CasesTable;
  hospital_arrival_settings: HospitalArrivalSettingsTable;
  case_destination_changes: CaseDestinationChangesTable;
  case_events: CaseEventsTable;
  case_access: CaseAccessTable;
  case_tags: CaseTagsTable;
  case_tag_values: CaseTagValuesTable;
  case_idempotency_keys: CaseIdempotencyKeysTable;
  case_feedback: CaseFeedbackTable;
  case_media: CaseMediaTable;
  realtime_channels: RealtimeChannelsTable;
  realtime_messages: RealtimeMessagesTable;
  case_outbox: CaseOutboxTable;
  calls: CallsTable;
  consults: ConsultsTable;
  consult_participants: ConsultParticipantsTable;
  case_outbox_messages: CaseOutboxMessagesTable;
  outbox_leases: OutboxLeasesTable;
  chat_messages: ChatMessagesTable;
  push_subscriptions: PushSubscriptionsTable;
  case_transfers: CaseTransfersTable;
  case_read_audit: CaseReadAuditTable;
  case_dispatches: CaseDispatchesTable;
  admin_audit: AdminAuditTable;
  security_audit: SecurityAuditTable;
  audit_chain_heads: AuditChainHeadsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type HospitalRow = Selectable<HospitalsTable>;
export type AgencyRow = Selectable<AgenciesTable>;
export type CaseRow = Selectable<CasesTable>;
export type CaseEventRow = Selectable<CaseEventsTable>;
