/**
 * Case-event writes at a fixed offered rate (open loop) — issue 11's figures: p50/p99 and errors at
 * 1,000 and 2,500 events/s offered, Poisson arrivals spread over 200 crews each writing to its own case;
 * then the closed-loop saturation (200 crews writing back to back) with the largest process's RSS.
 * Every figure: server CPU µs per event (and on PostgreSQL the database's own, every `postgres` process) and the
 * load average beside it, median of BENCH_RUNS runs (3).
 *
 * The console: BENCH_CONSOLE_CASES (20) of the crews' cases are headed to Riverside Regional, and ed1's
 * console holds `hospital:{Riverside}` as the board does; each of their events is timed from its scheduled
 * send to the `case.updated` that carries it on that socket (issue 11: p99 ≤ 25 ms while writing 1,000/s),
 * and from its answer to that socket ("after answer": what the outbox relay adds to the write's own time).
 *
 * Setups (BENCH_SETUPS): `sqlite`, `postgres-1` (one process), `postgres-2` (WORKERS=2 + Redis). Latency
 * is measured from each write's scheduled time, so a server that falls behind is charged for the
 * queue it causes (no coordinated omission). Afterwards every acknowledged event id is looked up in
 * case_events. Prints figures next to their targets; never asserts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { Agent } from 'undici';
import {
  authorizationHeader,
  buildPath,
  IDEMPOTENCY_KEY_HEADER,
  routes,
  type CaseChangeResponse,
} from '@inbound/contract';
import { postgresCounter, prepare, sqliteCounter, type CrewCase, type Scenario } from './case-writes';
import { signInAs, subscribe } from './lib/console';
import { pad, padStart } from './lib/format';
import { medianRun, percentile, poissonArrivals } from './lib/open-loop';
import { coresUsed, freePort, postgresCpuSeconds, startServer, type BenchServer } from './lib/server';

const RATES = (process.env.BENCH_RATES ?? '1000,2500').split(',').map(Number);
const SETUPS = (process.env.BENCH_SETUPS ?? 'sqlite,postgres-1,postgres-2').split(',').map((s) => s.trim());
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CREWS = Number(process.env.BENCH_CREWS ?? 200);
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONSOLE_CASES = Number(process.env.BENCH_CONSOLE_CASES ?? 20);
const RIVERSIDE = 'hospital-riverside-regional';
/** Event → console socket at 1,000/s offered (p99, ms). */
const CONSOLE_P99_TARGET_MS = 25;

/** Issue 11's targets, by setup and offered rate (p99 ms), and for saturation (events/s). */
const TARGETS: Record<string, { p99: Record<number, number>; p50?: Record<number, number>; saturation: number }> = {
  sqlite: { p50: { 1000: 3 }, p99: { 1000: 15, 2500: 40 }, saturation: 4_000 },
  'postgres-1': { p99: { 1000: 20 }, saturation: 2_500 },
  'postgres-2': { p99: { 1000: 20 }, saturation: 4_000 },
};
const RSS_TARGET_MB = 300;

interface RunFigures {
  offered: number | null;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  cpuUsPerEvent: number;
  /** PostgreSQL's own CPU per event (every postgres process); null on SQLite, whose work is the server's. */
  databaseUsPerEvent: number | null;
  load1: number;
  rssMb: number;
  eventIds: string[];
  /** The console cases' events: scheduled send → on the console's socket (ms); how many never came. */
  consoleP50Ms: number;
  consoleP99Ms: number;
  /** The same events from the write's answer to the console's socket: what the relay adds (ms). */
  relayP50Ms: number;
  relayP99Ms: number;
  consoleMissing: number;
}

/** ed1's console on Riverside's channel: when each event id arrived on it. */
interface ConsoleSocket {
  arrivedAt: Map<string, number>;
  close: () => void;
}

async function openConsole(url: string, scenario: Scenario): Promise<{ socket: ConsoleSocket; watched: Set<string> }> {
  const watched = scenario.cases.slice(0, CONSOLE_CASES);
  await Promise.all(
    watched.map(async (crew) => {
      const response = await fetch(`${url}${buildPath(routes.patchCase.path, { id: crew.id })}`, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          authorization: authorizationHeader(crew.token),
          [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: randomUUID(),
        },
        body: JSON.stringify({ destinationHospital: RIVERSIDE }),
      });
      if (!response.ok) throw new Error(`destination of ${crew.id}: ${response.status} ${await response.text()}`);
    }),
  );
  const arrivedAt = new Map<string, number>();
  const socket = await subscribe(url, await signInAs(url, 'ed1', 'hospital'), `hospital:${RIVERSIDE}`, (frame, at) => {
    const data = frame.event.data as { event?: { id?: string } };
    if (frame.event.type === 'case.updated' && data.event?.id) arrivedAt.set(data.event.id, at);
  });
  return { socket: { arrivedAt, close: socket.close }, watched: new Set(watched.map((crew) => crew.id)) };
}

const agent = new Agent({ connections: CREWS, pipelining: 1, keepAliveTimeout: 30_000 });

/** One write of the crews' mix (age or a location), recording one case event. */
async function write(url: string, crew: CrewCase, n: number): Promise<string | null> {
  const location = n % 2 === 1;
  const path = location
    ? buildPath(routes.caseLocation.path, { id: crew.id })
    : buildPath(routes.patchCase.path, { id: crew.id });
  const body = location
    ? { latitude: 41.88 + (n % 100) / 10_000, longitude: -87.63, accuracy: 8, recordedAt: new Date().toISOString() }
    : { age: 1 + (n % 99), agePeriod: 3 };
  const response = await fetch(`${url}${path}`, {
    method: location ? 'POST' : 'PATCH',
    headers: {
      'content-type': 'application/json',
      authorization: authorizationHeader(crew.token),
      [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: randomUUID(),
      'created-at': new Date().toISOString(),
    },
    body: JSON.stringify(body),
    // @ts-expect-error undici's dispatcher option is not in the DOM fetch types
    dispatcher: agent,
  });
  const text = await response.text();
  if (!response.ok) return null;
  return (JSON.parse(text) as CaseChangeResponse).event?.id ?? null;
}

/** Open loop: Poisson arrivals at `rate`/s for DURATION_S, each to the next crew in turn. */
async function openLoop(
  server: BenchServer,
  scenario: Scenario,
  rate: number | null,
  postgres: boolean,
  board: { socket: ConsoleSocket; watched: Set<string> },
): Promise<RunFigures> {
  const latencies: number[] = [];
  const eventIds: string[] = [];
  /** The console cases' acknowledged events: when each was scheduled and when its answer came. */
  const watchedSends = new Map<string, { scheduled: number; answered: number }>();
  let errors = 0;
  let n = 0;
  const cores = coresUsed(server.cpuSeconds);
  const databaseCores = coresUsed(postgresCpuSeconds);
  let rss = 0;
  const rssTimer = setInterval(() => (rss = Math.max(rss, server.largestRssMb())), 500);
  const start = performance.now();
  const end = start + DURATION_S * 1000;
  const send = (scheduled: number, crew: CrewCase) =>
    write(server.url, crew, n++).then(
      (id) => {
        const answered = performance.now();
        latencies.push(answered - scheduled);
        if (id) eventIds.push(id);
        else errors++;
        if (id && board.watched.has(crew.id)) watchedSends.set(id, { scheduled, answered });
      },
      () => {
        errors++;
      },
    );
  if (rate === null) {
    // Closed loop: every crew writes again as soon as its answer comes.
    await Promise.all(
      scenario.cases.map(async (crew) => {
        while (performance.now() < end) await send(performance.now(), crew);
      }),
    );
  } else {
    let crewIndex = 0;
    await poissonArrivals(rate, DURATION_S, (due) => send(due, scenario.cases[crewIndex++ % scenario.cases.length]!));
  }
  const elapsedS = (performance.now() - start) / 1000;
  const usedCores = cores();
  const usedDatabaseCores = databaseCores();
  // The relay announces after the answers: the last events get a moment to reach the console.
  const waitUntil = performance.now() + 2_000;
  while ([...watchedSends.keys()].some((id) => !board.socket.arrivedAt.has(id)) && performance.now() < waitUntil)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const arrived = [...watchedSends].flatMap(([id, times]) => {
    const at = board.socket.arrivedAt.get(id);
    return at === undefined ? [] : [{ ...times, at }];
  });
  const toConsole = arrived.map(({ scheduled, at }) => at - scheduled).sort((a, b) => a - b);
  const afterAnswer = arrived.map(({ answered, at }) => at - answered).sort((a, b) => a - b);
  clearInterval(rssTimer);
  rss = Math.max(rss, server.largestRssMb());
  latencies.sort((a, b) => a - b);
  return {
    offered: rate,
    eventsPerSecond: eventIds.length / elapsedS,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    errors,
    cpuUsPerEvent: eventIds.length ? (usedCores * elapsedS * 1e6) / eventIds.length : 0,
    databaseUsPerEvent: postgres && eventIds.length ? (usedDatabaseCores * elapsedS * 1e6) / eventIds.length : null,
    load1: loadavg()[0]!,
    rssMb: rss,
    eventIds,
    consoleP50Ms: percentile(toConsole, 0.5),
    consoleP99Ms: percentile(toConsole, 0.99),
    relayP50Ms: percentile(afterAnswer, 0.5),
    relayP99Ms: percentile(afterAnswer, 0.99),
    consoleMissing: watchedSends.size - toConsole.length,
  };
}

async function runSetup(
  setup: string,
): Promise<
  | { setup: string; rows: RunFigures[]; runs: RunFigures[][]; found: number; acknowledged: number }
  | { setup: string; skipped: string }
> {
  let databaseUrl: string | null = null;
  let dropDatabase = async () => undefined as unknown;
  const env: Record<string, string> = { SIGNIN_LIMIT_PER_ADDRESS: '100000000', SIGNIN_LIMIT_PER_ACCOUNT: '100000000' };
  if (setup.startsWith('postgres')) {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await admin.connect();
    } catch (error) {
      return { setup, skipped: `PostgreSQL unreachable: ${(error as Error).message}` };
    }
    const name = `inbound_bench_open_${Date.now()}_${process.pid}`;
    await admin.query(`create database ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    env.DATABASE_URL = databaseUrl;
    // The server's own default pool (10) unless asked: what a deployment runs with.
    if (process.env.BENCH_POOL_SIZE) env.DATABASE_POOL_SIZE = process.env.BENCH_POOL_SIZE;
    dropDatabase = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
    if (setup === 'postgres-2') {
      env.WORKERS = '2';
      env.REDIS_URL = REDIS_URL;
      env.REDIS_KEY_PREFIX = `inbound-bench-${randomBytes(4).toString('hex')}:`;
    }
  }
  const server = await startServer(await freePort(), env);
  try {
    console.info(`  … ${setup}: ${CREWS} crews sign in and start their cases`);
    const scenario = await prepare(server.url);
    const board = await openConsole(server.url, scenario);
    await openLoop(server, scenario, 500, databaseUrl !== null, board); // warm-up: JIT, statement caches, pool
    const runs: RunFigures[][] = [];
    for (const rate of [...RATES, null]) {
      const these: RunFigures[] = [];
      for (let run = 0; run < RUNS; run++) {
        these.push(await openLoop(server, scenario, rate, databaseUrl !== null, board));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      runs.push(these);
      console.info(`  … ${setup}: ${rate === null ? 'closed loop' : `${rate}/s offered`} ×${RUNS} done`);
    }
    board.socket.close();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const counter = databaseUrl ? await postgresCounter(databaseUrl) : sqliteCounter(server.dataDir);
    const ids = runs.flat().flatMap((r) => r.eventIds);
    const found = await counter.found(ids);
    await counter.close();
    const rows = runs.map((these) =>
      these[0]!.offered === null ? medianRun(these, (r) => r.eventsPerSecond) : medianRun(these, (r) => r.p99Ms),
    );
    return { setup, rows, runs, found, acknowledged: ids.length };
  } finally {
    await server.stop();
    await dropDatabase();
  }
}

function print(result: Awaited<ReturnType<typeof runSetup>>): void {
  if ('skipped' in result) {
    console.info(`\n== ${result.setup}: skipped (${result.skipped})`);
    return;
  }
  const target = TARGETS[result.setup];
  console.info(
    `\n== case writes, ${result.setup}, ${CREWS} crews on their own cases, ${DURATION_S} s per run, median of ${RUNS}`,
  );
  console.info(
    `  ${pad('offered', 12)} ${padStart('events/s', 9)} ${padStart('p50', 8)} ${padStart('p99', 8)} ${padStart('max', 8)} ${padStart('errors', 7)} ${padStart('CPU/event', 10)} ${padStart('PG CPU', 8)} ${padStart('RSS', 7)} ${padStart('load', 6)} ${padStart('console p50/p99', 16)} ${padStart('after answer', 13)}  target`,
  );
  for (const row of result.rows) {
    const goal =
      row.offered === null
        ? `≥ ${target?.saturation ?? '?'} events/s: ${row.eventsPerSecond >= (target?.saturation ?? Infinity) ? 'met' : 'NOT MET'}; RSS ≤ ${RSS_TARGET_MB} MB: ${row.rssMb <= RSS_TARGET_MB ? 'met' : 'NOT MET'}`
        : target?.p99[row.offered] !== undefined
          ? `p99 ≤ ${target.p99[row.offered]} ms${target.p50?.[row.offered] ? `, p50 ≤ ${target.p50[row.offered]} ms` : ''}: ${row.p99Ms <= target.p99[row.offered]! && (target.p50?.[row.offered] === undefined || row.p50Ms <= target.p50[row.offered]!) && row.errors === 0 ? 'met' : 'NOT MET'}`
          : 'none';
    const consoleGoal =
      row.offered === 1000
        ? `; event → console p99 ≤ ${CONSOLE_P99_TARGET_MS} ms: ${row.consoleP99Ms <= CONSOLE_P99_TARGET_MS && row.consoleMissing === 0 ? 'met' : 'NOT MET'}`
        : '';
    console.info(
      `  ${pad(row.offered === null ? 'closed loop' : `${row.offered}/s`, 12)} ${padStart(row.eventsPerSecond.toFixed(0), 9)} ` +
        `${padStart(`${row.p50Ms.toFixed(1)} ms`, 8)} ${padStart(`${row.p99Ms.toFixed(0)} ms`, 8)} ${padStart(`${row.maxMs.toFixed(0)} ms`, 8)} ` +
        `${padStart(String(row.errors), 7)} ${padStart(`${row.cpuUsPerEvent.toFixed(0)} µs`, 10)} ${padStart(row.databaseUsPerEvent === null ? '—' : `${row.databaseUsPerEvent.toFixed(0)} µs`, 8)} ${padStart(`${row.rssMb.toFixed(0)} MB`, 7)} ${padStart(row.load1.toFixed(1), 6)} ` +
        `${padStart(`${row.consoleP50Ms.toFixed(0)}/${row.consoleP99Ms.toFixed(0)} ms${row.consoleMissing ? ` (${row.consoleMissing} missing)` : ''}`, 16)} ${padStart(`${row.relayP50Ms.toFixed(0)}/${row.relayP99Ms.toFixed(0)} ms`, 13)}  ${goal}${consoleGoal}`,
    );
  }
  console.info(
    `  acknowledged writes found in case_events: ${result.found} of ${result.acknowledged}${result.found === result.acknowledged ? '' : '  <-- LOST WRITES'}`,
  );
}

export async function runCaseWritesOpen(): Promise<void> {
  console.info(
    `case writes, open loop — load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (the machine is shared: figures are a floor)`,
  );
  for (const setup of SETUPS) print(await runSetup(setup));
  await agent.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCaseWritesOpen().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
