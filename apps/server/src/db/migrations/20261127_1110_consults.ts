/**
 * Live video consults (issue 12 item 2): one row per consult of a case, at most one live per case (a
 * partial unique index: two first joins at once make one room), and one row per join of its room —
 * who, from which side, when they joined, were last heard from, and left. Portable types only.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('consults')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    // Bumped by every join: in PostgreSQL the update takes the row's lock, so joins count one at a time.
    .addColumn('joins', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('consults_one_live_per_case_uq')
    .on('consults')
    .column('case_id')
    .unique()
    .where(sql.ref('state'), '=', 'live')
    .execute();
  await db.schema
    .createTable('consult_participants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('consult_id', 'text', (c) => c.notNull().references('consults.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The join's number in its consult (1, 2, …): the room's order.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('left_at', 'text')
    .execute();
  await db.schema
    .createIndex('consult_participants_consult_idx')
    .on('consult_participants')
    .column('consult_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('consult_participants').ifExists().execute();
  await db.schema.dropTable('consults').ifExists().execute();
}
