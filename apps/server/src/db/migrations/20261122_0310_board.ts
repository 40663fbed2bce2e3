/**
 * The hospital console's board: the acknowledgement of a case by its destination ED (who, which
 * hospital, when — one per case; a new destination has not seen it, see board.service.ts), and the
 * audit of reads of case data by hospital staff (HIPAA §164.312(b) audit controls: who read which
 * case, from which hospital's console, how, when). Audit rows are only ever inserted.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('cases').addColumn('acknowledged_hospital_id', 'text').execute();
  await db.schema.alterTable('cases').addColumn('acknowledged_by', 'text').execute();
  await db.schema.alterTable('cases').addColumn('acknowledged_by_name', 'text').execute();
  await db.schema.alterTable('cases').addColumn('acknowledged_at', 'text').execute();

  await db.schema
    .createTable('case_read_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    /** board | detail: listed on the inbound board, or opened. */
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('case_read_audit_case_idx')
    .on('case_read_audit')
    .columns(['case_id', 'read_at'])
    .execute();
  await db.schema
    .createIndex('case_read_audit_user_idx')
    .on('case_read_audit')
    .columns(['user_id', 'read_at'])
    .execute();
  // The board lists a hospital's open cases: without this every board read scans all cases.
  await db.schema
    .createIndex('cases_destination_idx')
    .on('cases')
    .columns(['destination_hospital_id', 'arrived_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('cases_destination_idx').ifExists().execute();
  await db.schema.dropTable('case_read_audit').ifExists().execute();
  await db.schema.alterTable('cases').dropColumn('acknowledged_at').execute();
  await db.schema.alterTable('cases').dropColumn('acknowledged_by_name').execute();
  await db.schema.alterTable('cases').dropColumn('acknowledged_by').execute();
  await db.schema.alterTable('cases').dropColumn('acknowledged_hospital_id').execute();
}
