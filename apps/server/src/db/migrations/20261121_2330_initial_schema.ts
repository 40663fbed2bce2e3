/**
 * The foundation tables: users and their memberships, agencies with their hospitals, trucks,
 * monitors and forms, hospital statuses, complaint sets, broadcasts, sessions, sign-in throttle and
 * feedback. Only column types both SQLite and PostgreSQL understand the same way: text, integer,
 * double precision.
 */
import type { Kysely } from 'kysely';

// Migrations see an untyped database: the schema they build is not the schema of today's code.
type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('email_key', 'text', (c) => c.unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('agencies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('complaint_set_name', 'text', (c) => c.notNull())
    .addColumn('max_case_length', 'integer', (c) => c.notNull())
    .addColumn('emt_levels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hospitals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('non_twiage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_channel_id', 'text', (c) => c.notNull())
    .addColumn('ed_phone_numbers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('supported_features', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('agency_members')
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('agency_members_pk', ['agency_id', 'user_id', 'role'])
    .execute();
  await db.schema.createIndex('agency_members_user_idx').on('agency_members').column('user_id').execute();

  await db.schema
    .createTable('hospital_staff')
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('hospital_staff_pk', ['hospital_id', 'user_id'])
    .execute();
  await db.schema.createIndex('hospital_staff_user_idx').on('hospital_staff').column('user_id').execute();

  await db.schema
    .createTable('agency_hospitals')
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agency_hospitals_pk', ['agency_id', 'hospital_id'])
    .execute();
  await db.schema.createIndex('agency_hospitals_hospital_idx').on('agency_hospitals').column('hospital_id').execute();

  await db.schema
    .createTable('trucks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_als', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('trucks_agency_idx').on('trucks').column('agency_id').execute();

  await db.schema
    .createTable('monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('monitors_agency_idx').on('monitors').column('agency_id').execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('agency_forms')
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agency_forms_pk', ['agency_id', 'form_id'])
    .execute();

  await db.schema
    .createTable('hospital_statuses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('set_at', 'text', (c) => c.notNull())
    .addColumn('cleared_at', 'text')
    .execute();
  await db.schema
    .createIndex('hospital_statuses_hospital_idx')
    .on('hospital_statuses')
    .columns(['hospital_id', 'cleared_at'])
    .execute();

  await db.schema
    .createTable('complaint_sets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('complaints', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('complaint_sets_name_version_uq', ['name', 'version'])
    .execute();

  await db.schema
    .createTable('broadcasts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'text')
    .addColumn('case_number', 'text')
    .addColumn('sender_organization_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('broadcasts_created_idx').on('broadcasts').column('created_at').execute();

  await db.schema
    .createTable('broadcast_agencies')
    .addColumn('broadcast_id', 'text', (c) => c.notNull().references('broadcasts.id').onDelete('cascade'))
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('broadcast_agencies_pk', ['broadcast_id', 'agency_id'])
    .execute();
  await db.schema.createIndex('broadcast_agencies_agency_idx').on('broadcast_agencies').column('agency_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('client', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('account_key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('client_version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  // Children before parents, so foreign keys never block the drop.
  for (const table of [
    'feedback',
    'sign_in_throttle',
    'sessions',
    'broadcast_agencies',
    'broadcasts',
    'complaint_sets',
    'hospital_statuses',
    'agency_forms',
    'forms',
    'monitors',
    'trucks',
    'agency_hospitals',
    'hospital_staff',
    'agency_members',
    'hospitals',
    'agencies',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
