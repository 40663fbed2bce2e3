/**
 * A call recording cut short (decision 0042): the console that recorded it closed or crashed mid-call and
 * uploaded what it had kept at its next start. `partial` = 1 then; null for every other upload.
 * Portable: a nullable integer column, on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('case_media').addColumn('partial', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('case_media').dropColumn('partial').execute();
}
