/**
 * Arrival, hand-over and diversion (issue 15): the case's arrival at its destination (and the geofence
 * visit that leads to it), the ED's acceptance of the hand-over, a pending diversion; each hospital's
 * geofence radius and offload alert threshold; and every destination change, so a hospital's board can
 * say where a case that left it went. Portable types only (SQLite and PostgreSQL).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

const CASE_COLUMNS = [
  'destination_arrived_at',
  'destination_arrival_source',
  'destination_arrived_by_name',
  'geofence_entered_at',
  'handoff_at',
  'handoff_by',
  'handoff_by_name',
  'diverted_at',
  'diverted_by_name',
  'diversion_reason',
  'diverted_hospital_id',
] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const column of CASE_COLUMNS) await db.schema.alterTable('cases').addColumn(column, 'text').execute();
  await db.schema
    .createTable('hospital_arrival_settings')
    .addColumn('hospital_id', 'text', (c) => c.primaryKey().references('hospitals.id').onDelete('cascade'))
    .addColumn('arrival_radius_m', 'integer', (c) => c.notNull())
    .addColumn('offload_alert_minutes', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('case_destination_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('from_hospital_id', 'text', (c) => c.notNull())
    .addColumn('to_hospital_id', 'text', (c) => c.notNull())
    .addColumn('to_hospital_name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('case_destination_changes_from_idx')
    .on('case_destination_changes')
    .columns(['from_hospital_id', 'at'])
    .execute();
  // The offload report reads a hospital's arrivals by time.
  await db.schema
    .createIndex('cases_destination_arrived_idx')
    .on('cases')
    .columns(['destination_hospital_id', 'destination_arrived_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('cases_destination_arrived_idx').ifExists().execute();
  await db.schema.dropTable('case_destination_changes').ifExists().execute();
  await db.schema.dropTable('hospital_arrival_settings').ifExists().execute();
  for (const column of [...CASE_COLUMNS].reverse()) await db.schema.alterTable('cases').dropColumn(column).execute();
}
