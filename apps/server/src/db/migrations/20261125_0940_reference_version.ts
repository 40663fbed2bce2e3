/**
 * One reference version for the whole catalogue crews and ED staff read at every start: agencies and
 * their hospitals, trucks, monitors and forms, hospitals and their statuses, complaint sets, and users
 * with their memberships. Triggers bump it on every insert, update and delete of those tables, in the
 * writing transaction, so every process sees a change with the change itself and no write path can
 * forget it (db/reference-version.ts reads it; the reference caches are invalidated by it).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export const REFERENCE_TABLES = [
  'agencies',
  'agency_hospitals',
  'trucks',
  'monitors',
  'forms',
  'agency_forms',
  'hospitals',
  'hospital_statuses',
  'complaint_sets',
  'users',
  'agency_members',
  'hospital_staff',
] as const;

const OPERATIONS = ['insert', 'update', 'delete'] as const;

const isPostgres = (db: AnyDb): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('reference_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into reference_version (id, version) values (1, 1)`.execute(db);
  if (isPostgres(db)) {
    // One bump per statement, not per row: a statement that writes a hundred rows is one change.
    await sql`create function bump_reference_version() returns trigger language plpgsql as $$
      begin
        update reference_version set version = version + 1 where id = 1;
        return null;
      end $$`.execute(db);
    for (const table of REFERENCE_TABLES) {
      await sql
        .raw(
          `create trigger ${table}_reference_version after insert or update or delete or truncate on ${table} ` +
            `for each statement execute function bump_reference_version()`,
        )
        .execute(db);
    }
  } else {
    // SQLite has row triggers only; a bump is one in-page update of a one-row table.
    for (const table of REFERENCE_TABLES) {
      for (const operation of OPERATIONS) {
        await sql
          .raw(
            `create trigger ${table}_reference_version_${operation} after ${operation} on ${table} ` +
              `begin update reference_version set version = version + 1 where id = 1; end`,
          )
          .execute(db);
      }
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    for (const table of REFERENCE_TABLES) {
      await sql.raw(`drop trigger if exists ${table}_reference_version on ${table}`).execute(db);
    }
    await sql`drop function if exists bump_reference_version()`.execute(db);
  } else {
    for (const table of REFERENCE_TABLES) {
      for (const operation of OPERATIONS) {
        await sql.raw(`drop trigger if exists ${table}_reference_version_${operation}`).execute(db);
      }
    }
  }
  await db.schema.dropTable('reference_version').ifExists().execute();
}
