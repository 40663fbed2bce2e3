/**
 * Dispatched cases (issue 5 item 6) and who sent each broadcast. A dispatch is the hospital's order for
 * a case: its number, destination, agency, complaint and notes, and the emsDispatch broadcast that
 * announced it; the case itself (`cases`) is made when a crew claims it, and `case_id` then points to
 * it. Broadcasts learn their hospital and sender so a hospital can list what it sent; older rows get
 * their hospital from the sender organisation's name. Portable types only.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('broadcasts').addColumn('hospital_id', 'text').execute();
  await db.schema.alterTable('broadcasts').addColumn('sent_by', 'text').execute();
  await db.schema.alterTable('broadcasts').addColumn('sent_by_name', 'text').execute();
  await sql`update broadcasts set hospital_id = (select h.id from hospitals h where h.name = broadcasts.sender_organization_name)`.execute(
    db,
  );
  await db.schema
    .createIndex('broadcasts_hospital_created_idx')
    .on('broadcasts')
    .columns(['hospital_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('case_dispatches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_number', 'text', (c) => c.notNull().unique())
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id'))
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    .addColumn('complaint_set_id', 'text', (c) => c.notNull())
    .addColumn('complaint_set_name', 'text', (c) => c.notNull())
    .addColumn('complaint_id', 'text')
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('urgent', 'integer', (c) => c.notNull())
    .addColumn('broadcast_id', 'text', (c) => c.notNull().references('broadcasts.id'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text', (c) => c.unique())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .execute();
  await db.schema
    .createIndex('case_dispatches_hospital_created_idx')
    .on('case_dispatches')
    .columns(['hospital_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('case_dispatches').ifExists().execute();
  await db.schema.dropIndex('broadcasts_hospital_created_idx').ifExists().execute();
  await db.schema.alterTable('broadcasts').dropColumn('sent_by_name').execute();
  await db.schema.alterTable('broadcasts').dropColumn('sent_by').execute();
  await db.schema.alterTable('broadcasts').dropColumn('hospital_id').execute();
}
