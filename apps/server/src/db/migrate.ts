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
import * as caseOutbox from './migrations/20261125_0900_case_outbox.js';

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
  '20261125_0900_case_outbox': caseOutbox,
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

/** Undoes every migration (tests use it to prove each `down` works). */
export async function migrateDownAll<T>(db: Kysely<T>): Promise<void> {
  const m = migrator(db as Kysely<unknown>);
  for (;;) {
    const result = await m.migrateDown();
    check(result);
    if (!result.results || result.results.length === 0) return;
  }
}
