/**
 * Chat messages (numbered per case, with their delivery states and the idempotency key of the write that made each),
 * browser push subscriptions per topic, and case transfers. `case_transfers.live_code` and
 * `live_case_id` are set only while a transfer is live and cleared when it ends: their unique indexes
 * make "a code is unique among live transfers" and "one live transfer per case" hold under races on
 * both databases (NULLs never collide). Portable types only, as in the first migration.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    /** 1, 2, 3… per case: the order of the conversation (clocks tie, this does not). */
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('sender_organization', 'text', (c) => c.notNull())
    /** crew | hospital: receipts come from the other side. */
    .addColumn('sender_side', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('media_id', 'text')
    .addColumn('length', 'double precision')
    .addColumn('client_timestamp', 'text', (c) => c.notNull())
    .addColumn('client_created_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('read_at', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addUniqueConstraint('chat_messages_sender_key_uq', ['sender_id', 'idempotency_key'])
    .addUniqueConstraint('chat_messages_case_seq_uq', ['case_id', 'seq'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('push_subscriptions_topic_endpoint_uq', ['topic', 'endpoint'])
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();

  await db.schema
    .createTable('case_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('live_code', 'text')
    .addColumn('live_case_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('ems_agency_id', 'text', (c) => c.notNull())
    .addColumn('request_status', 'text')
    .addColumn('request_user_id', 'text')
    .addColumn('request_agency_id', 'text')
    .addColumn('request_truck_id', 'text')
    /** user | timeout, when cancelled by the sender. */
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('case_transfers_live_code_uq', ['live_code'])
    .addUniqueConstraint('case_transfers_live_case_uq', ['live_case_id'])
    .execute();
  await db.schema.createIndex('case_transfers_case_idx').on('case_transfers').column('case_id').execute();
  await db.schema
    .createIndex('case_transfers_expiry_idx')
    .on('case_transfers')
    .columns(['status', 'expires_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['case_transfers', 'push_subscriptions', 'chat_messages']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
