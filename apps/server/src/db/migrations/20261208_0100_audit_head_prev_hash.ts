/**
 * PostgreSQL's one-statement case write (decision 0054) moves an audit chain's head and computes the new
 * row's hash in the same UPDATE, then writes the row from that UPDATE's RETURNING. The row needs the hash
 * the head held before (its `prev_hash`), and RETURNING answers only new values before PostgreSQL 18; the
 * UPDATE sets `prev_hash = hash` beside the new hash, and returns it. A scratch column of that statement:
 * the other writes that move a head leave it as it is. Nullable, no backfill.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_chain_heads').addColumn('prev_hash', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_chain_heads').dropColumn('prev_hash').execute();
}
