/**
 * Voice calls between a crew and its destination ED (issue 12): one row per call, its state and who
 * took it; at most one live call per case. The first ED answer wins by a conditional update (state = 'ringing'), so two consoles
 * answering at once cannot both take it. Portable types only.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('caller_user_id', 'text', (c) => c.notNull())
    .addColumn('caller_name', 'text', (c) => c.notNull())
    .addColumn('answered_by_user_id', 'text')
    .addColumn('answered_by_name', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('answered_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('recording', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One live call per case: two crews' taps at once make one call, the other gets 409.
  await db.schema
    .createIndex('calls_one_live_per_case_uq')
    .on('calls')
    .column('case_id')
    .unique()
    .where(sql.ref('state'), '!=', 'ended')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('calls').ifExists().execute();
}
