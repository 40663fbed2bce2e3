/**
 * The transactional outbox of case events (issue 10): a row per recorded event, written in the
 * event's own transaction, removed once the event's real-time messages are stored and handed out. The
 * relay that does that holds a lease (one relay at a time across processes). A message published from
 * the outbox carries the event's id as its dedupe key, unique per channel, so a relay that runs an
 * event again (it crashed before removing the row) finds the stored message and its sequence number
 * instead of storing a second one. Portable types only.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('case_outbox')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('case_events.id').onDelete('cascade'))
    .addColumn('case_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('case_outbox_order_idx')
    .on('case_outbox')
    .columns(['created_at', 'case_id', 'seq'])
    .execute();
  await db.schema
    .createTable('outbox_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('outbox_leases' as never)
    .values({ name: 'case-events', holder: null, expires_at: 0 } as never)
    .execute();
  await db.schema.alterTable('realtime_messages').addColumn('dedupe_key', 'text').execute();
  await db.schema
    .createIndex('realtime_messages_dedupe_uq')
    .on('realtime_messages')
    .columns(['channel', 'dedupe_key'])
    .unique()
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('realtime_messages_dedupe_uq').ifExists().execute();
  await db.schema.alterTable('realtime_messages').dropColumn('dedupe_key').execute();
  await db.schema.dropTable('outbox_leases').ifExists().execute();
  await db.schema.dropTable('case_outbox').ifExists().execute();
}
