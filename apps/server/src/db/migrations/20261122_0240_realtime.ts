/**
 * The real-time channels' durable log: one counter row per channel (`realtime_channels.seq`, the last
 * sequence number handed out — never deleted, so a channel's numbers never restart while a client may
 * still hold one) and the messages themselves (`realtime_messages`, unique per channel and seq, pruned
 * after the retention time). A client that reconnects reads what it missed from here.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('realtime_channels')
    .addColumn('channel', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('realtime_messages')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('realtime_messages_pk', ['channel', 'seq'])
    .execute();
  await db.schema.createIndex('realtime_messages_created_idx').on('realtime_messages').column('created_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('realtime_messages').ifExists().execute();
  await db.schema.dropTable('realtime_channels').ifExists().execute();
}
