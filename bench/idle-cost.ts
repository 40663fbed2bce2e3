/**
 * What a server costs while nobody writes (issue 11, several processes): the real server started as
 * `npm start` runs it — SQLite, PostgreSQL with one process, PostgreSQL with two (WORKERS=2 + Redis) —
 * left idle for 20 s after start-up, then measured over BENCH_IDLE_S seconds (30): the server's CPU (ms per second),
 * PostgreSQL's own, and the transactions PostgreSQL committed per second (the statements the server sent:
 * outside a transaction each is one). Median of BENCH_RUNS (3) windows. Prints figures; never asserts.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { pad, padStart } from './lib/format';
import { medianRun } from './lib/open-loop';
import { freePort, postgresCpuSeconds, startServer } from './lib/server';

const SETUPS = (process.env.BENCH_SETUPS ?? 'sqlite,postgres-1,postgres-2').split(',').map((s) => s.trim());
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// Start-up's garbage is collected in the first seconds of idling: not part of what idling costs.
const SETTLE_S = 20;
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Window {
  serverMsPerS: number;
  postgresMsPerS: number | null;
  commitsPerS: number | null;
  load: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(setup: string): Promise<Window[] | string> {
  const env: Record<string, string> = {};
  let stats: pg.Client | null = null;
  let name = '';
  let admin: pg.Client | null = null;
  if (setup.startsWith('postgres')) {
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await admin.connect();
    } catch (error) {
      return `PostgreSQL unreachable: ${(error as Error).message}`;
    }
    name = `inbound_bench_idle_${Date.now()}_${process.pid}`;
    await admin.query(`create database ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    if (setup === 'postgres-2') {
      env.WORKERS = '2';
      env.REDIS_URL = REDIS_URL;
      env.REDIS_KEY_PREFIX = `inbound-bench-${randomBytes(4).toString('hex')}:`;
    }
    stats = admin;
  }
  const server = await startServer(await freePort(), env, { serverOnly: true });
  const commits = async () =>
    stats
      ? Number(
          (
            await stats.query<{ n: string }>('select xact_commit::text as n from pg_stat_database where datname = $1', [
              name,
            ])
          ).rows[0]!.n,
        )
      : 0;
  try {
    await sleep(SETTLE_S * 1_000);
    const windows: Window[] = [];
    for (let run = 0; run < RUNS; run++) {
      // pg_stat_database is updated when a backend reports (at most every PGSTAT_MIN_INTERVAL, 1 s):
      // a window of many seconds makes that edge small.
      const [cpu0, pg0, commits0] = [server.cpuSeconds(), postgresCpuSeconds(), await commits()];
      const started = process.hrtime.bigint();
      await sleep(IDLE_S * 1_000);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const [cpu1, pg1, commits1] = [server.cpuSeconds(), postgresCpuSeconds(), await commits()];
      windows.push({
        serverMsPerS: ((cpu1 - cpu0) * 1_000) / seconds,
        postgresMsPerS: stats ? ((pg1 - pg0) * 1_000) / seconds : null,
        commitsPerS: stats ? (commits1 - commits0) / seconds : null,
        load: loadavg()[0]!,
      });
      console.info(`  … ${setup}: window ${run + 1} of ${RUNS}`);
    }
    return windows;
  } finally {
    await server.stop();
    if (admin) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

export async function runIdleCost(): Promise<void> {
  console.info(`Idle cost: the server started and left alone, ${IDLE_S} s windows, median of ${RUNS}`);
  const lines: string[] = [];
  for (const setup of SETUPS) {
    const windows = await measure(setup);
    if (typeof windows === 'string') {
      lines.push(`  ${pad(setup, 12)}skipped: ${windows}`);
      continue;
    }
    const w = medianRun(windows, (x) => x.serverMsPerS);
    const fixed = (n: number | null, digits = 1) => (n === null ? '—' : n.toFixed(digits));
    lines.push(
      `  ${pad(setup, 12)}${padStart(fixed(w.serverMsPerS), 14)}${padStart(fixed(w.postgresMsPerS), 14)}` +
        `${padStart(fixed(w.commitsPerS), 16)}${padStart(w.load.toFixed(1), 7)}`,
    );
  }
  console.info('\n== Idle cost (nobody writing; a server that costs little idle leaves the cores to the writes)');
  console.info(
    `  ${pad('setup', 12)}${padStart('server ms/s', 14)}${padStart('PG ms/s', 14)}${padStart('PG commits/s', 16)}${padStart('load', 7)}`,
  );
  for (const line of lines) console.info(line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runIdleCost().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
