/**
 * The case: its current state (`cases`, `case_tags`, `case_tag_values`), the append-only event log
 * every change is written to in the same transaction (`case_events`), who may read and write it
 * (`case_access`: the owner now, transferees later), the idempotency keys of its writes (kept as long
 * as the case: they cascade with it) and the crews' feedback. Portable types only, as in the first
 * migration: text, integer, double precision; timestamps are ISO-8601 UTC text, JSON is text.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('cases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_number', 'text', (c) => c.notNull())
    .addColumn('placeholder_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('owned_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    .addColumn('truck_id', 'text', (c) => c.notNull().references('trucks.id'))
    .addColumn('complaint_set_id', 'text', (c) => c.notNull())
    .addColumn('complaint_set_name', 'text', (c) => c.notNull())
    .addColumn('complaint_id', 'text')
    .addColumn('destination_hospital_id', 'text')
    .addColumn('age', 'integer')
    .addColumn('age_period', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('gender', 'text')
    .addColumn('monitor_id', 'text')
    .addColumn('monitor_patient_id', 'text')
    .addColumn('monitor_type', 'text')
    .addColumn('patient_info', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('last_latitude', 'double precision')
    .addColumn('last_longitude', 'double precision')
    .addColumn('last_location_at', 'text')
    .addColumn('began_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('arrived_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    /** The sequence number of the case's last event. */
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('cases_case_number_uq', ['case_number'])
    .execute();
  await db.schema.createIndex('cases_owned_by_idx').on('cases').column('owned_by').execute();
  await db.schema.createIndex('cases_hospital_idx').on('cases').column('destination_hospital_id').execute();

  await db.schema
    .createTable('case_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('client_created_at', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addUniqueConstraint('case_events_case_seq_uq', ['case_id', 'seq'])
    .execute();

  await db.schema
    .createTable('case_access')
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('granted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_access_pk', ['case_id', 'user_id'])
    .execute();
  await db.schema.createIndex('case_access_user_idx').on('case_access').column('user_id').execute();

  await db.schema
    .createTable('case_tags')
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addColumn('complaint_id', 'text', (c) => c.notNull())
    .addColumn('group_identifier', 'text')
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_tags_pk', ['case_id', 'tag_id'])
    .execute();

  await db.schema
    .createTable('case_tag_values')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_tag_values_case_idx').on('case_tag_values').columns(['case_id', 'seq']).execute();

  await db.schema
    .createTable('case_idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('case_idempotency_keys_case_idx').on('case_idempotency_keys').column('case_id').execute();

  await db.schema
    .createTable('case_feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_feedback_case_idx').on('case_feedback').column('case_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'case_feedback',
    'case_idempotency_keys',
    'case_tag_values',
    'case_tags',
    'case_access',
    'case_events',
    'cases',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
