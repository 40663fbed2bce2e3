/**
 * Case-event writes under 200 concurrent crews, durable before the answer — target ≥ 2,000 events/s with
 * p99 ≤ 20 ms on SQLite (issue 3, "Figures"), and the same load on PostgreSQL for comparison.
 *
 * Starts the real server (tsx apps/server/src/main.ts) on 127.0.0.1 with a fresh seeded DATA_DIR — once
 * on SQLite (the default), once with DATABASE_URL pointing at a PostgreSQL database created for the run
 * and dropped after it. The demo crews medic1 and medic2 of Riverside EMS sign in once per crew (200
 * sessions); each session starts its own case, chooses a complaint and selects a data-enabled tag of it.
 * Then autocannon runs 200 connections for ~10 s, each writing to its own case, in the mix a crew sends:
 * age, a location update, gender, a tag value — each with a fresh Idempotency-Key and Created-At, as the
 * crew outbox sends them. Every one of these writes records one case event, so events/s = 2xx answers/s.
 *
 * Afterwards it checks the writes are really there: every acknowledged event id is looked up in
 * case_events, the table's rows are compared with the acknowledged writes, and one case is read back
 * through the API. Prints figures beside the targets; never asserts. Stops the server and removes its
 * data (and the PostgreSQL database) at the end, also on failure.
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  authorizationHeader,
  buildPath,
  DATA_ENABLED_CATEGORY,
  IDEMPOTENCY_KEY_HEADER,
  routes,
  type Case,
  type CaseChangeResponse,
  type ComplaintSet,
  type CreateCaseResponse,
  type SignInResponse,
  type Tag,
  type TagFieldValue,
  type Team,
  type Truck,
} from '@inbound/contract';
import { cpuPerAnswerUs, pad, padStart, verdict } from './lib/format';
import { coresUsed, freePort, ownCpuSeconds, startServer, type BenchServer } from './lib/server';

export const EVENTS_PER_S_TARGET = 2_000;
export const WRITE_P99_TARGET_MS = 20;
const CREWS = Number(process.env.BENCH_CREWS ?? 200);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 2;
/** The maintenance database: the bench creates its own database through it, and drops it at the end. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Which halves to run (comma-separated): both by default; one alone when measuring a change to it. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** Riverside EMS in the demo data (apps/server/src/seed/demo-data.ts); medic1 and medic2 are members. */
const TEAM_ID = 'agency-riverside-ems';
const CREW_USERS = ['medic1', 'medic2'];
/** caseStarted, complaint, tag: the events each case has before the load starts. */
const SETUP_EVENTS_PER_CASE = 3;
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));

export type DatabaseKind = 'sqlite' | 'postgres';

export interface WriteCheck {
  /** 2xx answers seen (warm-up and measured run). */
  acknowledged: number;
  /** 2xx answers whose body carried no event (each write of the mix records one). */
  withoutEvent: number;
  /** Of the acknowledged events' ids, how many are rows of case_events. */
  acknowledgedFound: number;
  /** Rows of case_events, and what the bench expects: setup events + acknowledged writes. */
  eventRows: number;
  expectedRows: number;
  /** Cases whose version (last seq) is not their number of events: a gap or a double in a case's log. */
  casesWithGaps: number;
  /** The sample case read back through GET /v4/twiageCases/{id}. */
  sample: {
    caseNumber: string;
    tagValues: number;
    acknowledgedTagValues: number;
    lastLocation: boolean;
    age: number | null;
    gender: string | null;
  } | null;
}

export interface CaseWriteFigures {
  database: DatabaseKind;
  /** Why the run did not happen (PostgreSQL unreachable), or null. */
  skipped: string | null;
  crews: number;
  durationS: number;
  eventsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  non2xx: number;
  errors: number;
  statusCounts: Record<string, number>;
  /** A few non-2xx bodies, to see what went wrong. */
  failureSamples: string[];
  byType: Record<string, number>;
  /** Acknowledged writes per crew in the measured run: fewest, median, most (and crews that wrote at all). */
  perCrew: { min: number; median: number; max: number; crews: number };
  /** CPU cores used during the measured run by the server's processes and by this one (autocannon). */
  serverCores: number;
  loadGeneratorCores: number;
  check: WriteCheck | null;
}

export interface CrewCase {
  id: string;
  caseNumber: string;
  token: string;
}

export interface Scenario {
  cases: CrewCase[];
  tagId: string;
  tagValue: (n: number) => TagFieldValue[];
}

/** What the load records from the answers: per case, the events acknowledged. */
export interface Tally {
  eventIds: string[];
  withoutEvent: number;
  statusCounts: Record<string, number>;
  failureSamples: string[];
  byType: Record<string, number>;
  tagValuesByCase: Map<string, number>;
  /** Acknowledged writes per case in the measured run: whether some crews waited far longer than others. */
  writesByCase: Map<string, number>;
}

export const newTally = (): Tally => ({
  eventIds: [],
  withoutEvent: 0,
  statusCounts: {},
  failureSamples: [],
  byType: {},
  tagValuesByCase: new Map(),
  writesByCase: new Map(),
});

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function writeHeaders(token: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: authorizationHeader(token),
    [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: randomUUID(),
    'created-at': new Date().toISOString(),
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function signIn(url: string, username: string): Promise<string> {
  const body = JSON.stringify({ username, password: `demo-${username}`, twiageClient: 'ems', platform: 'web' });
  const answer = await json<SignInResponse>(`${url}${routes.signIn.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  return answer.authorizationToken.token;
}

/** A value for one field of a data-enabled tag, of the field's type. */
function fieldValue(type: TagFieldValue['type'], n: number): string {
  switch (type) {
    case 'number':
      return String(60 + (n % 120));
    case 'text':
      return `note ${n}`;
    case 'date':
      return '2026-11-21';
    case 'datetime':
      return new Date(Date.now() - (n % 60) * 60_000).toISOString().replace('Z', '+00:00');
  }
}

/** Signs in one session per crew, starts one case per session, and readies each for tag values. */
export async function prepare(url: string): Promise<Scenario> {
  const tokens = await pooled(
    Array.from({ length: CREWS }, (_, i) => CREW_USERS[i % CREW_USERS.length]!),
    4, // argon2id: a few at a time keep both cores busy without queueing 200 hashes
    (username) => signIn(url, username),
  );
  const auth = { Authorization: authorizationHeader(tokens[0]!) };
  const team = await json<Team>(`${url}${buildPath(routes.team.path, { id: TEAM_ID })}?fields=dynamicForms`, {
    headers: auth,
  });
  const trucks = await json<Truck[]>(`${url}${buildPath(routes.trucks.path, { id: TEAM_ID })}`, { headers: auth });
  const query = new URLSearchParams({ name: team.complaintSet, firstOccurrenceOnly: 'true' });
  const [set] = await json<ComplaintSet[]>(`${url}${routes.complaintSets.path}?${query.toString()}`, {
    headers: auth,
  });
  if (!set || trucks.length === 0) throw new Error(`${TEAM_ID} has no complaint set or no trucks in the seeded data`);

  // A complaint with a data-enabled tag (stroke's last-known-well, a glucose, …): the tag-value write.
  let found: { complaintId: string; tag: Tag } | undefined;
  for (const complaint of set.complaints) {
    for (const section of complaint.sections) {
      const tag = section.tags.find((t) => t.category === DATA_ENABLED_CATEGORY && t.data.length > 0);
      if (tag && !found) found = { complaintId: complaint.id, tag };
    }
  }
  if (!found) throw new Error(`the complaint set ${set.name} has no data-enabled tag`);
  const { complaintId, tag } = found;
  const field = tag.data.find((f) => f.type === 'number') ?? tag.data[0]!;

  const cases = await pooled(tokens, 16, async (token, i) => {
    const created = await json<CreateCaseResponse>(
      `${url}${routes.createCase.path}?placeholderId=placeholder-${Date.now()}-${i}`,
      {
        method: 'POST',
        headers: writeHeaders(token),
        body: JSON.stringify({
          emsAgency: TEAM_ID,
          truck: trucks[i % trucks.length]!.id,
          beganAt: new Date().toISOString(),
        }),
      },
    );
    const casePath = `${url}${buildPath(routes.patchCase.path, { id: created.id })}`;
    await json(casePath, {
      method: 'PATCH',
      headers: writeHeaders(token),
      body: JSON.stringify({ complaint: complaintId }),
    });
    await json(`${url}${buildPath(routes.addCaseTag.path, { id: created.id })}?tagId=${encodeURIComponent(tag.id)}`, {
      method: 'POST',
      headers: writeHeaders(token),
    });
    return { id: created.id, caseNumber: created.caseNumber, token };
  });
  return {
    cases,
    tagId: tag.id,
    tagValue: (n) => [{ key: field.key, value: fieldValue(field.type, n), name: field.name, type: field.type }],
  };
}

/**
 * One autocannon run: `CREWS` connections, each bound to its own case for the whole run. autocannon
 * deep-copies the request list for each connection (lodash cloneDeep, which keeps shared references
 * shared), so the one `slot` object all four requests of a connection point at is that connection's
 * own; the first request it builds takes the next free case.
 */
async function load(url: string, scenario: Scenario, tally: Tally, durationS: number): Promise<autocannon.Result> {
  const { cases } = scenario;
  let nextCase = 0;
  let n = 0;
  const slot = { caseIndex: -1 };
  type Slotted = autocannon.Request & { slot: { caseIndex: number } };
  const caseOf = (request: autocannon.Request): CrewCase => {
    const own = (request as Slotted).slot;
    if (own.caseIndex < 0) own.caseIndex = nextCase++ % cases.length;
    return cases[own.caseIndex]!;
  };
  const onResponse = (status: number, body: string) => {
    tally.statusCounts[status] = (tally.statusCounts[status] ?? 0) + 1;
    if (status < 200 || status >= 300) {
      if (tally.failureSamples.length < 5) tally.failureSamples.push(`${status} ${body.slice(0, 200)}`);
      return;
    }
    const answer = JSON.parse(body) as CaseChangeResponse;
    if (!answer.event) {
      tally.withoutEvent++;
      return;
    }
    tally.eventIds.push(answer.event.id);
    tally.writesByCase.set(answer.id, (tally.writesByCase.get(answer.id) ?? 0) + 1);
    tally.byType[answer.event.type] = (tally.byType[answer.event.type] ?? 0) + 1;
    if (answer.event.type === 'dataEnabledTag') {
      tally.tagValuesByCase.set(answer.id, (tally.tagValuesByCase.get(answer.id) ?? 0) + 1);
    }
  };
  const write =
    (method: 'PATCH' | 'POST', route: (c: CrewCase) => string, body: () => unknown) =>
    (request: autocannon.Request): autocannon.Request => {
      const crewCase = caseOf(request);
      return {
        ...request,
        method,
        path: route(crewCase),
        headers: writeHeaders(crewCase.token),
        body: JSON.stringify(body()),
      };
    };
  const casePath = (c: CrewCase) => buildPath(routes.patchCase.path, { id: c.id });
  const mix: ((request: autocannon.Request) => autocannon.Request)[] = [
    write('PATCH', casePath, () => ({ age: 1 + (n++ % 120), agePeriod: 3 })),
    write(
      'POST',
      (c) => buildPath(routes.caseLocation.path, { id: c.id }),
      () => ({
        latitude: 41.88 + Math.random() / 100,
        longitude: -87.63 + Math.random() / 100,
        accuracy: 5 + Math.round(Math.random() * 20),
        recordedAt: new Date().toISOString(),
      }),
    ),
    write('PATCH', casePath, () => ({ gender: n++ % 2 === 0 ? 'F' : 'M' })),
    write(
      'PATCH',
      (c) => buildPath(routes.caseTagValues.path, { id: c.id, tagId: scenario.tagId }),
      () => ({ fields: scenario.tagValue(n++) }),
    ),
  ];
  const requests = mix.map((setupRequest) => ({ setupRequest, onResponse, slot }) as Slotted);
  return autocannon({ url, connections: CREWS, duration: durationS, timeout: 10, requests });
}

/** Looks every acknowledged event up in case_events and compares the rows with the acknowledged writes. */
export interface Counter {
  found(ids: string[]): Promise<number>;
  eventRows(): Promise<number>;
  casesWithGaps(): Promise<number>;
  close(): Promise<void>;
}

const GAPS_SQL =
  'select count(*) as n from cases where version <> (select count(*) from case_events e where e.case_id = cases.id)';

export function sqliteCounter(dataDir: string): Counter {
  const db = new Database(path.join(dataDir, 'inbound.db'), { readonly: true, fileMustExist: true });
  const one = (sql: string, ...params: unknown[]) => Number((db.prepare(sql).get(...params) as { n: number }).n);
  return {
    found: async (ids) => {
      let found = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        found += one(`select count(*) as n from case_events where id in (${chunk.map(() => '?').join(',')})`, ...chunk);
      }
      return found;
    },
    eventRows: async () => one('select count(*) as n from case_events'),
    casesWithGaps: async () => one(GAPS_SQL),
    close: async () => {
      db.close();
    },
  };
}

export async function postgresCounter(databaseUrl: string): Promise<Counter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const one = async (sql: string, params: unknown[] = []) =>
    Number((await client.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);
  return {
    found: (ids) => one('select count(*) as n from case_events where id = any($1::text[])', [ids]),
    eventRows: () => one('select count(*) as n from case_events'),
    casesWithGaps: () => one(GAPS_SQL),
    close: () => client.end(),
  };
}

export async function check(url: string, scenario: Scenario, tally: Tally, counter: Counter): Promise<WriteCheck> {
  const acknowledged = tally.eventIds.length + tally.withoutEvent;
  const sampleCase = scenario.cases[0]!;
  const read = await json<Case>(
    `${url}${buildPath(routes.getCase.path, { id: sampleCase.id })}?rawDataEnabledTags=true`,
    {
      headers: { Authorization: authorizationHeader(sampleCase.token) },
    },
  );
  const tag = read.tags.find((t) => t.id === scenario.tagId);
  // The writes in flight when autocannon stopped still commit (on PostgreSQL, 200 queued writes take over a
  // second): count once the rows stop growing, for at most 10 s.
  let eventRows = await counter.eventRows();
  for (let waited = 0; waited < 10_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await counter.eventRows();
    if (now === eventRows) break;
    eventRows = now;
  }
  return {
    acknowledged,
    withoutEvent: tally.withoutEvent,
    acknowledgedFound: await counter.found(tally.eventIds),
    eventRows,
    expectedRows: scenario.cases.length * SETUP_EVENTS_PER_CASE + tally.eventIds.length,
    casesWithGaps: await counter.casesWithGaps(),
    sample: {
      caseNumber: read.caseNumber,
      tagValues: tag?.values.length ?? 0,
      acknowledgedTagValues: tally.tagValuesByCase.get(sampleCase.id) ?? 0,
      lastLocation: read.lastLocation !== null,
      age: read.age,
      gender: read.gender,
    },
  };
}

function spread(counts: number[]): CaseWriteFigures['perCrew'] {
  const sorted = [...counts].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? 0,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted.at(-1) ?? 0,
    crews: sorted.filter((n) => n > 0).length,
  };
}

export async function runOne(
  database: DatabaseKind,
  databaseUrl: string | null,
  extraEnv: Record<string, string> = {},
): Promise<CaseWriteFigures> {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  const server: BenchServer = await startServer(port, {
    SIGNIN_LIMIT_PER_ADDRESS: '100000000',
    SIGNIN_LIMIT_PER_ACCOUNT: '100000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  });
  try {
    console.info(`  … ${database}: ${CREWS} crews sign in and start their cases`);
    const scenario = await prepare(server.url);
    const tally = newTally();
    console.info(`  … ${database}: ${WARMUP_S} s warm-up, then ${CREWS} connections for ${DURATION_S} s`);
    await load(server.url, scenario, tally, WARMUP_S);
    await settle();
    tally.writesByCase.clear();
    const serverCores = coresUsed(server.cpuSeconds);
    const loadGeneratorCores = coresUsed(ownCpuSeconds);
    const result = await load(server.url, scenario, tally, DURATION_S);
    const cores = { serverCores: serverCores(), loadGeneratorCores: loadGeneratorCores() };
    await settle(); // the writes still in flight when autocannon stopped land now
    const counter = databaseUrl ? await postgresCounter(databaseUrl) : sqliteCounter(server.dataDir);
    let verified: WriteCheck;
    try {
      verified = await check(server.url, scenario, tally, counter);
    } finally {
      await counter.close();
    }
    return {
      database,
      skipped: null,
      crews: CREWS,
      durationS: result.duration,
      eventsPerSecond: result['2xx'] / result.duration,
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      statusCounts: tally.statusCounts,
      failureSamples: tally.failureSamples,
      byType: tally.byType,
      perCrew: spread(scenario.cases.map((c) => tally.writesByCase.get(c.id) ?? 0)),
      ...cores,
      check: verified,
    };
  } finally {
    await server.stop();
  }
}

const skippedFigures = (database: DatabaseKind, reason: string): CaseWriteFigures => ({
  database,
  skipped: reason,
  crews: CREWS,
  durationS: 0,
  eventsPerSecond: 0,
  p50Ms: 0,
  p90Ms: 0,
  p99Ms: 0,
  maxMs: 0,
  total: 0,
  non2xx: 0,
  errors: 0,
  statusCounts: {},
  failureSamples: [],
  byType: {},
  perCrew: { min: 0, median: 0, max: 0, crews: 0 },
  serverCores: 0,
  loadGeneratorCores: 0,
  check: null,
});

async function runPostgres(): Promise<CaseWriteFigures> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => undefined);
    return skippedFigures('postgres', `PostgreSQL unreachable at ${POSTGRES_ADMIN_URL}: ${(error as Error).message}`);
  }
  const name = `inbound_bench_${Date.now()}_${process.pid}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    await admin.query(`create database ${name}`);
    try {
      return await runOne('postgres', url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

/** The disk under the server's data: the time of one small write + fdatasync, which a durable commit waits for. */
export function measureFsyncMs(samples = 100): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-fsync-'));
  try {
    const fd = openSync(path.join(dir, 'probe'), 'w');
    const block = Buffer.alloc(4096, 1);
    const started = process.hrtime.bigint();
    for (let i = 0; i < samples; i++) {
      writeSync(fd, block, 0, block.length, i * block.length);
      fdatasyncSync(fd);
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6 / samples;
    closeSync(fd);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runCaseWrites(): Promise<{ fsyncMs: number; runs: CaseWriteFigures[] }> {
  const fsyncMs = measureFsyncMs();
  const runs: CaseWriteFigures[] = [];
  if (DATABASES.includes('sqlite')) runs.push(await runOne('sqlite', null));
  if (DATABASES.includes('postgres')) {
    if (runs.length > 0) await settle();
    runs.push(await runPostgres());
  }
  return { fsyncMs, runs };
}

export function printCaseWrites({ fsyncMs, runs }: { fsyncMs: number; runs: CaseWriteFigures[] }): void {
  console.info(
    `\n== Case-event writes, ${CREWS} concurrent crews, each on its own case (autocannon, ${DURATION_S} s, loopback)`,
  );
  console.info(`  answered after a durable commit; disk: one 4 KB write + fdatasync ≈ ${fsyncMs.toFixed(2)} ms`);
  console.info(
    `  ${pad('database', 9)} ${padStart('events/s', 9)} ${padStart('p50', 8)} ${padStart('p99', 8)} ${padStart('max', 8)}  target`,
  );
  for (const f of runs) {
    if (f.skipped) {
      console.info(`  ${pad(f.database, 9)} skipped: ${f.skipped}`);
      continue;
    }
    const target =
      f.database === 'sqlite'
        ? `≥ ${EVENTS_PER_S_TARGET} events/s: ${f.eventsPerSecond >= EVENTS_PER_S_TARGET ? 'within target' : 'BELOW TARGET'}; ` +
          `p99 ≤ ${WRITE_P99_TARGET_MS} ms: ${verdict(f.p99Ms <= WRITE_P99_TARGET_MS)}`
        : 'none (the target is for SQLite; shown for comparison)';
    console.info(
      `  ${pad(f.database, 9)} ${padStart(f.eventsPerSecond.toFixed(0), 9)} ${padStart(`${f.p50Ms} ms`, 8)} ` +
        `${padStart(`${f.p99Ms} ms`, 8)} ${padStart(`${f.maxMs} ms`, 8)}  ${target}`,
    );
  }
  for (const f of runs) {
    if (f.skipped || !f.check) continue;
    const c = f.check;
    const mix = Object.entries(f.byType)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ');
    console.info(`  ${f.database}:`);
    console.info(
      `    requests ${f.total}, non-2xx ${f.non2xx}, errors/timeouts ${f.errors}` +
        (f.non2xx > 0 ? ` (status: ${JSON.stringify(f.statusCounts)})` : ''),
    );
    for (const sample of f.failureSamples) console.info(`      e.g. ${sample}`);
    console.info(
      `    CPU during the run: server ${f.serverCores.toFixed(2)} cores, load generator ${f.loadGeneratorCores.toFixed(2)} cores` +
        (f.database === 'postgres' ? " (PostgreSQL's own processes besides)" : '') +
        `; server CPU per event ${cpuPerAnswerUs(f.serverCores, f.eventsPerSecond)} µs`,
    );
    console.info(`    acknowledged events (warm-up + run): ${mix}`);
    const crew = f.perCrew;
    console.info(
      `    writes per crew in the run: fewest ${crew.min}, median ${crew.median}, most ${crew.max} ` +
        `(${crew.crews} of ${f.crews} crews wrote)`,
    );
    const unacknowledged = c.eventRows - c.expectedRows;
    console.info(
      `    check: ${c.acknowledgedFound} of ${c.acknowledged} acknowledged events are rows of case_events` +
        `${c.withoutEvent > 0 ? ` (${c.withoutEvent} answers carried no event)` : ''}; ` +
        `${c.eventRows} rows = ${c.expectedRows} expected (setup + acknowledged)` +
        (unacknowledged === 0
          ? ''
          : ` ${unacknowledged > 0 ? '+' : '−'} ${Math.abs(unacknowledged)}` +
            (unacknowledged > 0 ? ' written but not acknowledged (in flight when the load stopped)' : ' MISSING')) +
        `; cases with a gap in their log: ${c.casesWithGaps}`,
    );
    if (c.sample) {
      const s = c.sample;
      console.info(
        `    read back case ${s.caseNumber}: ${s.tagValues} tag values (acknowledged ${s.acknowledgedTagValues}), ` +
          `last location ${s.lastLocation ? 'set' : 'MISSING'}, age ${s.age ?? 'none'}, gender ${s.gender ?? 'none'}`,
      );
    }
  }
  const needed = Math.round((CREWS * 1000) / WRITE_P99_TARGET_MS);
  console.info(
    `  With ${CREWS} crews always waiting (each sends its next write as soon as the last is answered), mean\n` +
      `  latency ≈ ${CREWS} ÷ throughput: p99 ≤ ${WRITE_P99_TARGET_MS} ms under this load needs well over ${needed} events/s` +
      (needed > EVENTS_PER_S_TARGET ? `, ${(needed / EVENTS_PER_S_TARGET).toFixed(0)}× the throughput target.` : '.') +
      '\n  A case read back may hold one more tag value than acknowledged: a write in flight when the load stopped.',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printCaseWrites(await runCaseWrites());
}
