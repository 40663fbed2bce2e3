/**
 * Real databases for tests: a fresh SQLite file in a temp directory, or a fresh PostgreSQL database
 * (`inbound_test_<random>`) created on the local server and dropped afterwards. When PostgreSQL is not
 * reachable the PostgreSQL cases are skipped with a printed reason — except in CI, where they must run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, openSqlite, type Database, type DialectName } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase extends Database {
  /** Closes and deletes it. */
  destroy(): Promise<void>;
  /** PostgreSQL: the connection URL (backup tests hand it to pg_dump); SQLite: the file. */
  url: string;
}

let pgReachable: Promise<boolean> | null = null;

async function probePostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The dialects this run covers: SQLite always; PostgreSQL when reachable (required when CI=true). */
export async function testDialects(): Promise<DialectName[]> {
  pgReachable ??= probePostgres();
  if (await pgReachable) return ['sqlite', 'postgres'];
  const message = `PostgreSQL not reachable at ${PG_ADMIN_URL}: PostgreSQL tests skipped`;
  if (process.env.CI === 'true') throw new Error(`${message} — but CI=true requires them`);
  console.warn(message);
  return ['sqlite'];
}

export async function createTestDatabase(
  dialect: DialectName,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  let database: Database;
  let url: string;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-test-'));
    url = path.join(dir, 'inbound.db');
    database = openSqlite(url);
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `inbound_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const pgUrl = new URL(PG_ADMIN_URL);
    pgUrl.pathname = `/${name}`;
    url = pgUrl.toString();
    database = openPostgres(url, 4);
    cleanup = async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  if (options.migrate !== false) await migrateToLatest(database.db);
  return {
    ...database,
    url,
    async destroy() {
      await database.close();
      await cleanup();
    },
  };
}

/** Bare agencies `Agency {id}` for tests of the database layer (no team, trucks or users). */
export async function insertBareAgencies(db: Database['db'], ids: readonly string[]): Promise<void> {
  const now = '2026-11-22T00:00:00.000Z';
  await db
    .insertInto('agencies')
    .values(
      ids.map((id) => ({
        id,
        name: `Agency ${id}`,
        complaint_set_name: 'Set',
        max_case_length: 240,
        emt_levels: '[]',
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}
