/**
 * CPU per durable case event, in-process (issue 11, item 1): the real app (`buildApp`, the real SQLite
 * file or PostgreSQL, request logging at info into a discarding stream) answers case writes through
 * `app.inject` — routing, auth, validation, the write, its commit and fsync, and the outbox relay that
 * announces it — with no HTTP client competing for the same two cores. The figure is this process's
 * CPU time (all threads) per acknowledged event, counted until the outbox is empty, so the relay's
 * work is in it. The socket's HTTP parsing is not (bench/case-writes-open.ts has the whole server).
 *
 *   npx tsx bench/case-write-cpu.ts                   # SQLite, 3 runs of 4,000 writes, 64 at a time
 *   BENCH_DIALECT=postgres npx tsx bench/case-write-cpu.ts
 *   node --cpu-prof --import tsx bench/case-write-cpu.ts   # where the time goes
 *   BENCH_WARMUP_WRITES=500 BENCH_WRITES=2000 BENCH_RUNS=1 …  # shorter, for alternating two copies
 *   BENCH_CPU_PROFILE=/tmp/prof …    # a .cpuprofile of the measured runs only (not start-up or warm-up)
 *   BENCH_DESTINATION=1 …            # cases headed to Riverside Regional: each event also goes to its board
 *   BENCH_STATEMENTS=1 …             # the statements run per event, by SQL text (one extra run); on PostgreSQL
 *                                    # each sent statement, named (parsed once per connection) or not
 *
 * Prints the median of the runs next to the target (≤ 200 µs per event on SQLite) and the load average.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { authorizationHeader, buildPath, CaseChangeResponse, routes } from '@inbound/contract';
import { createTestApp } from '../apps/server/src/test/app.js';
import { RIVERSIDE_TRUCK, setDestination, startCase } from '../apps/server/src/test/crew-api.js';
import { IDS } from '../apps/server/src/seed/demo-data.js';
import { postgresCpuSeconds } from './lib/server.js';

const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WRITES = Number(process.env.BENCH_WRITES ?? 4_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
/** Writes of the warm-up run (JIT, statement caches), not counted. */
const WARMUP = Number(process.env.BENCH_WARMUP_WRITES ?? WRITES);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const DESTINATION = process.env.BENCH_DESTINATION === '1';
const COUNT_STATEMENTS = process.env.BENCH_STATEMENTS === '1';
const CASES = 200;
const TARGET_US = 200;

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const t = await createTestApp({ dialect: DIALECT, env: { LOG_LEVEL: 'info' }, logStream: discard as never });
const token = await t.signIn('medic1');
const cases: string[] = [];
for (let i = 0; i < CASES; i++) {
  const { id } = await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK);
  if (DESTINATION) await setDestination(t, token, id, IDS.hospitals.riversideRegional);
  cases.push(id);
}

async function write(n: number): Promise<string | null> {
  const caseId = cases[n % CASES]!;
  const location = n % 2 === 1;
  const response = await t.app.inject({
    method: location ? 'POST' : 'PATCH',
    url: location
      ? buildPath(routes.caseLocation.path, { id: caseId })
      : buildPath(routes.patchCase.path, { id: caseId }),
    headers: {
      authorization: authorizationHeader(token),
      'idempotency-key': randomUUID(),
      'created-at': new Date().toISOString(),
      'content-type': 'application/json',
    },
    payload: location
      ? { latitude: 41.88 + (n % 100) / 10_000, longitude: -87.63, accuracy: 8, recordedAt: new Date().toISOString() }
      : { age: 1 + (n % 99), agePeriod: 3 },
  });
  return response.statusCode === 200 ? (CaseChangeResponse.parse(response.json()).event?.id ?? null) : null;
}

async function outboxEmpty(): Promise<void> {
  for (;;) {
    const row = await t.database.db
      .selectFrom('case_outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function run(
  writes = WRITES,
): Promise<{ cpuUs: number; userUs: number; systemUs: number; databaseUs: number; perSecond: number; errors: number }> {
  await outboxEmpty();
  const cpu = process.cpuUsage();
  const databaseCpu = postgresCpuSeconds();
  const start = performance.now();
  let next = 0;
  let ok = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < writes) {
        if (await write(next++)) ok++;
        else errors++;
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  await outboxEmpty();
  const used = process.cpuUsage(cpu);
  const databaseUs = ((postgresCpuSeconds() - databaseCpu) * 1e6) / ok;
  return {
    cpuUs: (used.user + used.system) / ok,
    userUs: used.user / ok,
    systemUs: used.system / ok,
    // Only on PostgreSQL: SQLite's work is this process's own.
    databaseUs: DIALECT === 'postgres' ? databaseUs : 0,
    perSecond: ok / wall,
    errors,
  };
}

/**
 * Counts the statements node-postgres sends by SQL text over one run of its own (not in the figures), and
 * whether each went as a named statement (parsed and planned once per connection) or unnamed (parsed and
 * planned by PostgreSQL every time): every one is a round trip and a socket write. Patches pg's
 * `Client.prototype.query`, this process only. No timings: a statement's wall time here is mostly waiting.
 */
async function countPostgresStatements(): Promise<void> {
  const pg = (await import('pg')).default;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const stats = new Map<string, number>();
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; name?: string };
    const text = typeof config === 'string' ? config : (config.text ?? '');
    const key = `${typeof config === 'object' && config.name ? 'named  ' : 'unnamed'} ${text}`;
    stats.set(key, (stats.get(key) ?? 0) + 1);
    return original.apply(this, args);
  };
  const writes = 1_000;
  await run(writes);
  proto.query = original;
  const total = [...stats.values()].reduce((sum, n) => sum + n, 0);
  const unnamed = [...stats].filter(([key]) => key.startsWith('unnamed')).reduce((sum, [, n]) => sum + n, 0);
  console.info(
    `statements per event: ${(total / writes).toFixed(2)} (unnamed, parsed each time: ${(unnamed / writes).toFixed(2)})`,
  );
  console.info('  per event  statement');
  for (const [key, n] of [...stats].sort((a, b) => b[1] - a[1]))
    console.info(`  ${(n / writes).toFixed(2).padStart(9)}  ${key.replace(/\s+/g, ' ').slice(0, 120)}`);
}

/**
 * Counts better-sqlite3's statement runs by SQL text over one run of its own (not in the figures), with
 * the time each spends in SQLite (a synchronous call: wall time ≈ its CPU unless the machine preempts
 * it) — what a write and its relay cost in statements. Patches the Statement prototype, this process only.
 */
async function countStatements(): Promise<void> {
  const probe = (await import('better-sqlite3')).default;
  const proto = Object.getPrototypeOf(new probe(':memory:').prepare('select 1')) as Record<string, unknown>;
  const stats = new Map<string, { calls: number; ns: bigint }>();
  const originals = (['run', 'all', 'get'] as const).map((name) => [name, proto[name]] as const);
  for (const [name, original] of originals)
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      const start = process.hrtime.bigint();
      try {
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } finally {
        const stat = stats.get(this.source) ?? { calls: 0, ns: 0n };
        stat.calls += 1;
        stat.ns += process.hrtime.bigint() - start;
        stats.set(this.source, stat);
      }
    };
  const writes = 1_000;
  await run(writes);
  for (const [name, original] of originals) proto[name] = original;
  const perEvent = (ns: bigint) => Number(ns) / 1_000 / writes;
  const total = [...stats.values()].reduce((sum, s) => ({ calls: sum.calls + s.calls, ns: sum.ns + s.ns }));
  console.info(
    `statements per event: ${(total.calls / writes).toFixed(2)}, ${perEvent(total.ns).toFixed(0)} µs per event in SQLite`,
  );
  console.info('  per event  µs/event  statement');
  for (const [sql, s] of [...stats].sort((a, b) => Number(b[1].ns - a[1].ns)))
    console.info(
      `  ${(s.calls / writes).toFixed(2).padStart(9)}  ${perEvent(s.ns).toFixed(1).padStart(8)}  ${sql.replace(/\s+/g, ' ').slice(0, 110)}`,
    );
}

/** The measured runs' CPU profile (the main thread), written to PROFILE_DIR. */
async function profiled<T>(work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = path.join(PROFILE_DIR, `case-write-cpu-${DIALECT}-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.info(`CPU profile of the measured runs: ${file}`);
    session.disconnect();
  }
}

await run(WARMUP); // warm-up: JIT, statement caches
if (COUNT_STATEMENTS) await (DIALECT === 'postgres' ? countPostgresStatements() : countStatements());
const results: Awaited<ReturnType<typeof run>>[] = [];
await profiled(async () => {
  for (let i = 0; i < RUNS; i++) results.push(await run());
});
results.sort((a, b) => a.cpuUs - b.cpuUs);
const median = results[Math.floor(results.length / 2)]!;
console.info(
  `case writes in-process, ${DIALECT}${DESTINATION ? ' (cases with a destination on the platform)' : ''}, ${WRITES} writes ×${RUNS}, ${CONCURRENCY} at a time — load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.info(
  `  CPU per event (median): ${median.cpuUs.toFixed(0)} µs (user ${median.userUs.toFixed(0)}, system ${median.systemUs.toFixed(0)})  [runs: ${results.map((r) => r.cpuUs.toFixed(0)).join(', ')}]` +
    `  target ≤ ${TARGET_US} µs: ${median.cpuUs <= TARGET_US ? 'met' : 'NOT MET'}; ${median.perSecond.toFixed(0)} events/s; errors ${median.errors}`,
);
const databaseUs = results.map((r) => r.databaseUs).sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
if (DIALECT === 'postgres')
  console.info(
    `  PostgreSQL's own CPU per event (every postgres process, median): ${databaseUs.toFixed(0)} µs  [runs: ${results.map((r) => r.databaseUs.toFixed(0)).join(', ')}]` +
      `; server + database ${(median.cpuUs + databaseUs).toFixed(0)} µs — the ceiling on 2 cores ≈ ${((2 * 1e6) / (median.cpuUs + databaseUs)).toFixed(0)} events/s`,
  );
await t.close();
