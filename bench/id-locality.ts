/**
 * What the kind of id costs an append-only table (decision 0046): random UUIDs (v4) against
 * time-ordered ones (`timeOrderedId`, UUIDv7), as the primary key of a table that already holds
 * BENCH_ROWS rows (1,000,000), written the way case events are at 1,000/s — small commits of 4 rows.
 *
 *   SQLite (better-sqlite3, WAL, the server's synchronous=NORMAL + one sync per commit left out: the
 *   bytes written are the figure): CPU µs per row and bytes written per commit.
 *   PostgreSQL (node-postgres, synchronous_commit=on, a checkpoint before each round so full-page
 *   images count as they do in service): PostgreSQL's CPU µs per row and WAL bytes per commit.
 *
 *   npx tsx bench/id-locality.ts      # BENCH_ROWS (1,000,000), BENCH_COMMITS (2,500), BENCH_RUNS (3)
 *
 * Median of the runs; no target (the figures explain one choice of the write path).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { timeOrderedId } from '../apps/server/src/db/time-ordered-id.js';
import { postgresCpuSeconds } from './lib/server.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 2_500);
const PER_COMMIT = 4;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PAYLOAD = JSON.stringify({ age: 42, agePeriod: 3 });

type Kind = 'random (v4)' | 'time-ordered (v7)';
const KINDS: Kind[] = ['random (v4)', 'time-ordered (v7)'];
/** Ids as the server makes them now, and for the rows already there, ids made over the time before. */
const idOf = (kind: Kind, at: number) => (kind === 'random (v4)' ? randomUUID() : timeOrderedId(at));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const bytesWritten = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

function sqliteRuns(kind: Kind): { cpuUs: number; bytes: number }[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbound-id-locality-'));
  const db = new SQLite(path.join(dir, 'ids.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(
      'create table events (id text primary key, case_id text not null, seq integer not null, payload text not null)',
    );
    const insert = db.prepare('insert into events values (?, ?, ?, ?)');
    const fill = db.transaction((from: number, count: number) => {
      for (let i = from; i < from + count; i++)
        insert.run(idOf(kind, Date.now() - ROWS + i), `case-${i % 200}`, i, PAYLOAD);
    });
    for (let i = 0; i < ROWS; i += 50_000) fill(i, Math.min(50_000, ROWS - i));
    const commit = db.transaction((n: number) => {
      for (let i = 0; i < PER_COMMIT; i++) insert.run(idOf(kind, Date.now()), `case-${(n + i) % 200}`, n + i, PAYLOAD);
    });
    return Array.from({ length: RUNS }, () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const cpu = process.cpuUsage();
      const written = bytesWritten();
      for (let n = 0; n < COMMITS; n++) commit(n * PER_COMMIT);
      const used = process.cpuUsage(cpu);
      return { cpuUs: (used.user + used.system) / (COMMITS * PER_COMMIT), bytes: (bytesWritten() - written) / COMMITS };
    });
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresRuns(admin: pg.Client, kind: Kind): Promise<{ cpuUs: number; bytes: number }[]> {
  const name = `inbound_bench_ids_${Date.now()}_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    await client.query(
      'create table events (id text primary key, case_id text not null, seq integer not null, payload text not null)',
    );
    for (let from = 0; from < ROWS; from += 20_000) {
      const count = Math.min(20_000, ROWS - from);
      const ids = Array.from({ length: count }, (_, i) => idOf(kind, Date.now() - ROWS + from + i));
      await client.query(
        `insert into events select id, 'case-' || (n % 200), n, $2 from unnest($1::text[]) with ordinality as t(id, n)`,
        [ids, PAYLOAD],
      );
    }
    await client.query('vacuum analyze events');
    const runs: { cpuUs: number; bytes: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      await client.query('checkpoint');
      const lsn = (await client.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn')).rows[0]!.lsn;
      const cpu = postgresCpuSeconds();
      for (let n = 0; n < COMMITS; n++) {
        const values = Array.from({ length: PER_COMMIT }, (_, i) => [
          idOf(kind, Date.now()),
          `case-${(n + i) % 200}`,
          n,
          PAYLOAD,
        ]);
        await client.query({
          name: 'insert-4',
          text: 'insert into events values ($1, $2, $3, $4), ($5, $6, $7, $8), ($9, $10, $11, $12), ($13, $14, $15, $16)',
          values: values.flat(),
        });
      }
      const used = postgresCpuSeconds() - cpu;
      const bytes = (
        await client.query<{ bytes: string }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1) as bytes', [lsn])
      ).rows[0]!.bytes;
      runs.push({ cpuUs: (used * 1e6) / (COMMITS * PER_COMMIT), bytes: Number(bytes) / COMMITS });
    }
    return runs;
  } finally {
    await client.end();
    await admin.query(`drop database if exists ${name} with (force)`);
  }
}

function print(database: string, what: string, kind: Kind, runs: { cpuUs: number; bytes: number }[]): void {
  const cpu = median(runs.map((r) => r.cpuUs));
  const kib = median(runs.map((r) => r.bytes)) / 1024;
  console.info(
    `  ${database.padEnd(10)} ${kind.padEnd(18)} ${cpu.toFixed(1).padStart(6)} µs CPU per row${what}  ` +
      `${kib.toFixed(1).padStart(6)} KiB written per commit  [runs: ${runs.map((r) => r.cpuUs.toFixed(1)).join(', ')}]`,
  );
}

export async function runIdLocality(): Promise<void> {
  console.info(
    `ids of an append-only table: ${ROWS} rows there, ${COMMITS} commits of ${PER_COMMIT} new rows ×${RUNS}, median — load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const kind of KINDS) print('SQLite', '', kind, sqliteRuns(kind));
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    console.info(`  PostgreSQL: skipped (unreachable: ${(error as Error).message})`);
    return;
  }
  try {
    for (const kind of KINDS) print('PostgreSQL', ' (its own)', kind, await postgresRuns(admin, kind));
  } finally {
    await admin.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runIdLocality().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
