/**
 * The idempotency keys of broadcast sends: a console that retries `POST /notification/broadcasts`
 * with the same key gets the first answer instead of a second broadcast. A key is per sender, kept as
 * long as the broadcast (it cascades with it), like the case writes' keys. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('broadcast_idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('broadcast_id', 'text', (c) => c.notNull().references('broadcasts.id').onDelete('cascade'))
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('broadcast_idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createIndex('broadcast_idempotency_keys_broadcast_idx')
    .on('broadcast_idempotency_keys')
    .column('broadcast_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('broadcast_idempotency_keys').ifExists().execute();
}
