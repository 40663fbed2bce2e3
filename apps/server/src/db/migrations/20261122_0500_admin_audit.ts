/**
 * The audit of organisation administration: who changed which user, agency, hospital or complaint set,
 * when, and what it looked like before and after (JSON, never a password or its hash). Rows are only
 * ever inserted, in the transaction of the change they describe. The actor's name is copied so the log
 * stays readable after the actor's account changes. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('admin_audit_at_idx').on('admin_audit').columns(['at', 'id']).execute();
  await db.schema
    .createIndex('admin_audit_entity_idx')
    .on('admin_audit')
    .columns(['entity_type', 'entity_id', 'at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('admin_audit').ifExists().execute();
}
