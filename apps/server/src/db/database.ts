/**
 * Opens the database: SQLite in DATA_DIR by default (one file, nothing to run beside the server),
 * PostgreSQL when DATABASE_URL is set (many server processes, one database).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { namedStatementPool } from './postgres-named-statements.js';
import type { DB } from './schema.js';
import { ReadWriteSqliteDialect, StatementCache } from './sqlite-driver.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { WalSync } from './wal-sync.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** Where it lives, safe to print: the file, or the PostgreSQL URL without its password. */
  location: string;
  /** PostgreSQL: the pool's connections now (metrics). */
  poolStats?(): { inUse: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function openSqlite(file: string): Database {
  const inMemory = file === ':memory:';
  if (!inMemory) mkdirSync(path.dirname(file), { recursive: true });
  const writer = new SQLite(file);
  // WAL lets readers go on while one writer commits; busy_timeout waits for the writer instead of
  // failing with SQLITE_BUSY. A commit must survive power loss, which a patient record must: on a
  // file, NORMAL plus the WAL's fsync on the thread pool before anyone is answered (wal-sync.ts) —
  // FULL's guarantee without the event loop waiting for the disk. In memory nothing is durable anyway.
  writer.pragma('journal_mode = WAL');
  writer.pragma(inMemory ? 'synchronous = FULL' : 'synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  // A second connection only reads (see sqlite-driver.ts). An in-memory database exists once per
  // connection, so it keeps Kysely's single-connection driver, with prepared statements reused.
  if (inMemory) {
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(writer) }) });
    return { db, dialect: 'sqlite', location: file, close: () => db.destroy() };
  }
  const walSync = new WalSync(`${file}-wal`);
  // Checkpoints (two fsyncs and the page copies) in a worker thread, not in a request's COMMIT.
  const checkpointer = new WalCheckpointer(writer, file, (error) => {
    process.emitWarning(`SQLite checkpoint: ${error.message}`);
  });
  walSync.afterCommit = () => checkpointer.committed();
  const db = new Kysely<DB>({ dialect: new ReadWriteSqliteDialect(writer, openReader(file), walSync) });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    async close() {
      await checkpointer.close();
      await db.destroy();
    },
  };
}

function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file);
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/** Kysely prepares every query anew; the SQL of our queries is a small fixed set, so each is prepared once. */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new StatementCache(sqlite);
  return { close: () => sqlite.close(), prepare: (sql: string) => statements.prepare(sql) };
}

export function openPostgres(connectionString: string, poolSize = 10): Database {
  // synchronous_commit=on for every connection, whatever the server's default: a COMMIT returns only
  // once its WAL is flushed, so a case event the server has answered survives a crash.
  const pool = new pg.Pool({ connectionString, max: poolSize, options: '-c synchronous_commit=on' });
  // An idle pooled connection that the server drops (restart, failover, admin) emits 'error' on the
  // pool; unhandled, that would crash the process. The pool replaces the connection on next use.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL idle connection lost: ${error.message}`);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
  return {
    db,
    dialect: 'postgres',
    location: redactUrl(connectionString),
    poolStats: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

export function createDatabase(config: {
  dataDir: string;
  databaseUrl: string | null;
  databasePoolSize?: number;
}): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolSize)
    : openSqlite(path.join(config.dataDir, 'inbound.db'));
}

export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** PostgreSQL answers count(*) as a string (bigint); SQLite as a number. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
