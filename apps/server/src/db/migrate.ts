/**
 * Runs the migrations at start. They are listed here, in code, rather than read from a folder: tsx and
 * any future bundle see the same list, and a migration cannot go missing from a deployment.
 */
import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as initialSchema from './migrations/20261121_2330_initial_schema.js';
import * as cases from './migrations/20261122_0030_cases.js';
import * as media from './migrations/20261122_0230_media.js';
import * as realtime from './migrations/20261122_0240_realtime.js';
import * as chatPushTransfers from './migrations/20261122_0250_chat_push_transfers.js';
import * as board from './migrations/20261122_0310_board.js';
import * as broadcastKeys from './migrations/20261122_0400_broadcast_idempotency_keys.js';
import * as adminAudit from './migrations/20261122_0500_admin_audit.js';
import * as userAdmin from './migrations/20261122_0510_user_admin.js';
import * as adminCatalog from './migrations/20261122_0520_admin_catalog.js';
import * as dispatch from './migrations/20261122_0530_dispatch.js';
import * as referenceVersion from './migrations/20261125_0940_reference_version.js';
import * as protocols from './migrations/20261125_1100_protocols.js';
import * as security from './migrations/20261125_1130_security.js';
import * as caseOutbox from './migrations/20261125_1140_case_outbox.js';
import * as arrivalHandoff from './migrations/20261125_1300_arrival_handoff.js';
import * as auditChain from './migrations/20261125_1300_audit_chain.js';
import * as calls from './migrations/20261125_1300_calls.js';
import * as protocolImports from './migrations/20261125_1300_protocol_imports.js';
import * as teamActivation from './migrations/20261125_1300_team_activation.js';
import * as caseMessagesAckNames from './migrations/20261125_1310_case_messages_and_ack_names.js';
import * as dispatchCancel from './migrations/20261125_1310_dispatch_cancel.js';
import * as mfa from './migrations/20261125_1310_mfa.js';
import * as hospitalCapabilities from './migrations/20261125_1320_hospital_capabilities.js';
import * as consults from './migrations/20261127_1110_consults.js';
import * as callRecordings from './migrations/20261127_1120_call_recordings.js';
import * as readAuditOutlives from './migrations/20261127_1150_read_audit_outlives.js';
import * as webauthn from './migrations/20261127_1150_webauthn.js';
import * as chargeNurseHandoffWatch from './migrations/20261127_1320_charge_nurse_handoff_watch.js';
import * as callRecordingPartial from './migrations/20261127_1610_call_recording_partial.js';
import * as caseEventsMedia from './migrations/20261129_1040_case_events_media.js';
import * as auditHeadPrevHash from './migrations/20261208_0100_audit_head_prev_hash.js';

export const migrations: Record<string, Migration> = {
  '20261121_2330_initial_schema': initialSchema,
  '20261122_0030_cases': cases,
  '20261122_0230_media': media,
  '20261122_0240_realtime': realtime,
  '20261122_0250_chat_push_transfers': chatPushTransfers,
  '20261122_0310_board': board,
  '20261122_0400_broadcast_idempotency_keys': broadcastKeys,
  '20261122_0500_admin_audit': adminAudit,
  '20261122_0510_user_admin': userAdmin,
  '20261122_0520_admin_catalog': adminCatalog,
  '20261122_0530_dispatch': dispatch,
  '20261125_0940_reference_version': referenceVersion,
  '20261125_1100_protocols': protocols,
  '20261125_1130_security': security,
  '20261125_1140_case_outbox': caseOutbox,
  '20261125_1300_arrival_handoff': arrivalHandoff,
  '20261125_1300_audit_chain': auditChain,
  '20261125_1300_calls': calls,
  '20261125_1300_protocol_imports': protocolImports,
  '20261125_1300_team_activation': teamActivation,
  '20261125_1310_case_messages_and_ack_names': caseMessagesAckNames,
  '20261125_1310_dispatch_cancel': dispatchCancel,
  '20261125_1310_mfa': mfa,
  '20261125_1320_hospital_capabilities': hospitalCapabilities,
  '20261127_1110_consults': consults,
  '20261127_1120_call_recordings': callRecordings,
  '20261127_1150_read_audit_outlives': readAuditOutlives,
  '20261127_1150_webauthn': webauthn,
  '20261127_1320_charge_nurse_handoff_watch': chargeNurseHandoffWatch,
  '20261127_1610_call_recording_partial': callRecordingPartial,
  '20261129_1040_case_events_media': caseEventsMedia,
  '20261208_0100_audit_head_prev_hash': auditHeadPrevHash,
};

function migrator(db: Kysely<unknown>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function check(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String(result.error)}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the schema to the latest version; answers the names of the migrations it applied. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return check(await migrator(db as Kysely<unknown>).migrateToLatest());
}

/** The migrations this code knows that the database has not applied (readiness: none may be left). */
export async function pendingMigrations<T>(db: Kysely<T>): Promise<string[]> {
  const known = await migrator(db as Kysely<unknown>).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * Undoes the migrations applied after `name` (which stays applied): the one-version-back rollback of an
 * upgrade, run with the NEW version's code before the old version starts (it knows only its own).
 */
export async function migrateDownTo<T>(db: Kysely<T>, name: string): Promise<string[]> {
  if (!(name in migrations)) throw new Error(`no migration named ${name}`);
  const result = await migrator(db as Kysely<unknown>).migrateTo(name);
  if (result.error) throw new Error(`rolling back failed: ${String(result.error)}`);
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Undoes every migration (tests use it to prove each `down` works). */
export async function migrateDownAll<T>(db: Kysely<T>): Promise<void> {
  const m = migrator(db as Kysely<unknown>);
  for (;;) {
    const result = await m.migrateDown();
    check(result);
    if (!result.results || result.results.length === 0) return;
  }
}
