/**
 * Issue 10's rest. (1) `case_outbox_messages`: the case outbox's second kind of row — a message for
 * `case:{id}` that is not a case event (a chat message, a receipt, a finished conversion), written in
 * the same transaction as the change it announces and relayed like an event (case-outbox.ts); its id
 * is the message's dedupe key. (2) Every `acknowledged` event names its hospital (`hospitalName`, now
 * required by the contract): events recorded before it was written get the hospital's name.
 * Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

interface AckRow {
  id: string;
  payload: string;
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('case_outbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('case_outbox_messages_order_idx')
    .on('case_outbox_messages')
    .columns(['created_at', 'id'])
    .execute();

  const typed = db as unknown as Kysely<{
    case_events: AckRow & { type: string };
    hospitals: { id: string; name: string };
  }>;
  const acks = await typed
    .selectFrom('case_events')
    .select(['id', 'payload'])
    .where('type', '=', 'acknowledged')
    .execute();
  for (const row of acks) {
    const payload = JSON.parse(row.payload) as { hospitalId?: string; hospitalName?: string };
    if (typeof payload.hospitalName === 'string') continue;
    const hospital = await typed
      .selectFrom('hospitals')
      .select('name')
      .where('id', '=', payload.hospitalId ?? '')
      .executeTakeFirst();
    await typed
      .updateTable('case_events')
      .set({ payload: JSON.stringify({ ...payload, hospitalName: hospital?.name ?? '' }) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  // The names stay in the old events (the older code reads them as optional).
  await db.schema.dropTable('case_outbox_messages').ifExists().execute();
}
