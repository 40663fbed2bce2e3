/**
 * Call recordings (issue 12): a `callrecording` upload names the call it recorded, so a call has at
 * most one recording (checked under the case's row lock) and the console can say which call it was.
 * Calls get `alive_at`: the last time either party said it was still in the call (`POST
 * /v4/calls/{id}/alive`); a connected call nobody has spoken for in a while is ended as lost.
 * Portable: nullable text columns and a plain index, on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('case_media').addColumn('call_id', 'text').execute();
  await db.schema.createIndex('case_media_call_id_idx').on('case_media').column('call_id').execute();
  await db.schema.alterTable('calls').addColumn('alive_at', 'text').execute();
  await db.schema.createIndex('calls_state_idx').on('calls').column('state').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('calls_state_idx').ifExists().execute();
  await db.schema.alterTable('calls').dropColumn('alive_at').execute();
  await db.schema.dropIndex('case_media_call_id_idx').ifExists().execute();
  await db.schema.alterTable('case_media').dropColumn('call_id').execute();
}
