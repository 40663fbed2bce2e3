/**
 * Real-time fan-out (issue 4, "Figures"): printed beside the targets, never asserting.
 *
 * Three kinds of process, this one file in three roles (`--server`, `--clients`, the coordinator):
 * - server: the real app (`buildApp`, migrations, demo seed) listening on 127.0.0.1; on command it
 *   publishes durably through the gateway's publisher at a steady rate, each event stamped with the wall
 *   time of the `publish` call — so a latency includes the commit (SQLite group commit / PostgreSQL);
 * - clients: every WebSocket, in their own process (so the server's memory is the server's), recording
 *   for each message the time from publish to arrival and checking each channel's numbers for gaps and
 *   doubles;
 * - the coordinator starts them, drives the scenarios and prints.
 *
 * Scenarios: 500 crew sockets (one case channel each) + 500 hospital consoles (50 hospital channels,
 * 10 consoles each); every case event is a publish on the case and one on its hospital, a steady 1,000
 * and 2,000 publishes/s. Memory per idle connection with 10,000 connected. The same fan-out with two
 * server processes on PostgreSQL + Redis. A reconnect storm: 1,000 clients reconnect at once after a
 * server restart, having missed messages, and must catch up with nothing missed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { WebSocket } from 'ws';
import { authorizationHeader, CreateCaseResponse, ServerFrame, type SignInResponse } from '@inbound/contract';
import { pad, padStart, verdict } from './lib/format';

export const TARGETS = {
  p99At1000Ms: 20,
  p999At1000Ms: 50,
  p99At2000Ms: 50,
  bytesPerIdleConnection: 50 * 1024,
  p99TwoProcessesMs: 40,
  reconnectStormMs: 10_000,
};
const CREWS = Number(process.env.BENCH_RT_CREWS ?? 500);
const HOSPITALS = 50;
const CONSOLES_PER_HOSPITAL = Number(process.env.BENCH_RT_CONSOLES_PER_HOSPITAL ?? 10);
const IDLE_CONNECTIONS = Number(process.env.BENCH_RT_IDLE ?? 10_000);
const MEASURE_MS = Number(process.env.BENCH_RT_SECONDS ?? 10) * 1000;
const WARMUP_MS = 2_000;
const STORM_MISSED_PER_CHANNEL = 5;
const JWT_SECRET = randomBytes(32).toString('base64url');
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Wall time in ms with sub-ms precision, comparable between processes of one machine. */
const wallNow = () => performance.timeOrigin + performance.now();

// ---- IPC -----------------------------------------------------------------------------------------
interface Request {
  id: number;
  cmd: string;
  args?: unknown;
}
interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

function serve(handlers: Record<string, (args: never) => Promise<unknown>>): void {
  process.on('message', (message: Request) => {
    const handler = handlers[message.cmd];
    if (!handler) return process.send?.({ id: message.id, ok: false, error: `unknown ${message.cmd}` });
    handler(message.args as never).then(
      (value) => process.send?.({ id: message.id, ok: true, value } satisfies Reply),
      (error: unknown) => process.send?.({ id: message.id, ok: false, error: String(error) } satisfies Reply),
    );
  });
  // The coordinator gone (finished or crashed): nothing left to do.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ id: 0, ok: true, value: 'started' });
}

interface Worker {
  child: ChildProcess;
  call<T>(cmd: string, args?: unknown): Promise<T>;
  stop(): Promise<void>;
}

async function startWorker(role: '--server' | '--clients', env: Record<string, string> = {}): Promise<Worker> {
  const child = fork(import.meta.filename, [role], {
    // BENCH_SERVER_CPU_PROF=<dir>: the server processes run under --cpu-prof (written when they stop).
    execArgv: [
      '--import',
      'tsx',
      ...(role === '--server' && process.env.BENCH_SERVER_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`]
        : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const started = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
    child.on('message', (reply: Reply) => {
      if (reply.id === 0) return resolve();
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.value);
      else waiter?.reject(new Error(reply.error));
    });
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${role} exited`));
  });
  await started;
  return {
    child,
    call<T>(cmd: string, args?: unknown) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, args } satisfies Request);
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

// ---- server role ---------------------------------------------------------------------------------
interface BenchDatabase {
  db: unknown;
  close(): Promise<void>;
}
interface BenchApp {
  listen(options: { port: number; host: string }): Promise<string>;
  server: { address(): unknown };
  close(): Promise<void>;
  realtime: { publish(channel: string, event: { type: string; data: unknown }): Promise<{ seq: number }> };
}

/**
 * The server's modules, loaded by path at run time with the few types used here: `tsc -p bench` then
 * checks the bench alone, not the whole server under the bench's settings.
 */
const serverModule = async <T>(file: string): Promise<T> =>
  (await import(pathToFileURL(path.join(import.meta.dirname, '../apps/server/src', file)).href)) as T;

async function serverRole(): Promise<void> {
  const { buildApp } = await serverModule<{
    buildApp(config: unknown, options: { database: BenchDatabase }): Promise<BenchApp>;
  }>('app.ts');
  const { systemClock } = await serverModule<{ systemClock: unknown }>('clock.ts');
  const { loadConfig } = await serverModule<{ loadConfig(): unknown }>('config.ts');
  const { createDatabase } = await serverModule<{ createDatabase(config: unknown): BenchDatabase }>('db/database.ts');
  const { migrateToLatest } = await serverModule<{ migrateToLatest(db: unknown): Promise<unknown> }>('db/migrate.ts');
  const { hashPassword } = await serverModule<{ hashPassword: unknown }>('modules/auth/passwords.ts');
  const { seedDemoData } = await serverModule<{
    seedDemoData(db: unknown, deps: { clock: unknown; hashPassword: unknown }): Promise<unknown>;
  }>('seed/seed.ts');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  const config = loadConfig();
  const database = createDatabase(config);
  await migrateToLatest(database.db);
  if (process.env.BENCH_SEED === 'true') await seedDemoData(database.db, { clock: systemClock, hashPassword });
  const app = await buildApp(config, { database });
  // Port 0: the OS picks a free one (PORT cannot say 0); the coordinator asks which.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;

  let stopPublishing: () => void = () => undefined;
  const shutdown = async () => {
    stopPublishing();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());

  serve({
    port: () => Promise.resolve(port),
    /** Publishes `events` (channel lists, round-robin) at `rate` per second for `ms`; answers counts. */
    publish: ({ channels, rate, ms }: { channels: string[]; rate: number; ms: number }) =>
      new Promise((resolve) => {
        let published = 0;
        let failed = 0;
        let inFlight = 0;
        let maxInFlight = 0;
        let index = 0;
        const started = performance.now();
        const lastSeq: Record<string, number> = {};
        const commitMs: number[] = [];
        const tick = () => {
          const due = Math.floor(((performance.now() - started) / 1000) * rate);
          while (published + failed + inFlight < due) {
            const channel = channels[index++ % channels.length]!;
            inFlight += 1;
            maxInFlight = Math.max(maxInFlight, inFlight);
            const t = wallNow();
            app.realtime.publish(channel, { type: 'bench', data: { t } }).then(
              ({ seq }) => {
                commitMs.push(wallNow() - t);
                inFlight -= 1;
                published += 1;
                lastSeq[channel] = Math.max(lastSeq[channel] ?? 0, seq);
              },
              () => {
                inFlight -= 1;
                failed += 1;
              },
            );
          }
        };
        const timer = setInterval(tick, 2);
        const finish = () => {
          clearInterval(timer);
          const wait = setInterval(() => {
            if (inFlight > 0) return;
            clearInterval(wait);
            resolve({ published, failed, maxInFlight, lastSeq, commit: percentiles(commitMs) });
          }, 5);
        };
        stopPublishing = finish;
        setTimeout(finish, ms);
      }),
    memory: () => {
      gc();
      gc();
      return Promise.resolve(process.memoryUsage());
    },
  });
}

// ---- clients role --------------------------------------------------------------------------------
interface SocketSpec {
  url: string;
  token: string;
  channel: string;
}

function clientsRole(): void {
  interface Client {
    spec: SocketSpec;
    socket: WebSocket | null;
    lastSeq: number;
    subscribed: boolean;
  }
  let clients: Client[] = [];
  let latencies: number[] = [];
  let measuring = false;
  let gaps = 0;
  let doubles = 0;
  let waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters) w();
  };

  function open(client: Client, url: string, withLastSeq: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      client.socket = socket;
      client.subscribed = false;
      socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: client.spec.token })));
      socket.on('message', (data: Buffer) => {
        const frame = ServerFrame.parse(JSON.parse(data.toString('utf8')));
        if (frame.type === 'ready') {
          socket.send(
            JSON.stringify({
              type: 'subscribe',
              channel: client.spec.channel,
              ...(withLastSeq ? { lastSeq: client.lastSeq } : {}),
            }),
          );
        } else if (frame.type === 'subscribed') {
          client.lastSeq = Math.max(client.lastSeq, frame.seq);
          client.subscribed = true;
          resolve();
          wake();
        } else if (frame.type === 'message') {
          if (frame.seq <= client.lastSeq) doubles += 1;
          else if (frame.seq !== client.lastSeq + 1) gaps += 1;
          client.lastSeq = Math.max(client.lastSeq, frame.seq);
          if (measuring) latencies.push(wallNow() - (frame.event.data as { t: number }).t);
          wake();
        } else if (frame.type === 'error') reject(new Error(frame.message));
      });
      socket.on('error', reject);
      socket.on('close', (code) => {
        if (!client.subscribed) reject(new Error(`closed ${code}`));
      });
    });
  }

  async function inBatches<T>(items: T[], size: number, each: (item: T) => Promise<void>): Promise<number> {
    let failed = 0;
    for (let i = 0; i < items.length; i += size) {
      const results = await Promise.allSettled(items.slice(i, i + size).map(each));
      failed += results.filter((r) => r.status === 'rejected').length;
    }
    return failed;
  }

  serve({
    connect: async ({ specs }: { specs: SocketSpec[] }) => {
      const added = specs.map((spec) => ({ spec, socket: null, lastSeq: 0, subscribed: false }));
      clients.push(...added);
      const failed = await inBatches(added, 250, (client) => open(client, client.spec.url, false));
      return { open: clients.length - failed, failed };
    },
    measure: ({ on }: { on: boolean }) => {
      measuring = on;
      if (on) {
        latencies = [];
        gaps = 0;
        doubles = 0;
        return Promise.resolve(null);
      }
      return Promise.resolve({ ...percentiles(latencies), gaps, doubles });
    },
    disconnectAll: async () => {
      await Promise.all(
        clients.map(
          (client) =>
            new Promise<void>((resolve) => {
              if (!client.socket || client.socket.readyState === WebSocket.CLOSED) return resolve();
              client.socket.once('close', () => resolve());
              client.socket.terminate();
            }),
        ),
      );
      return null;
    },
    forget: () => {
      clients = [];
      return Promise.resolve(null);
    },
    /** Everyone reconnects at once (to `urls`, by index), subscribing with their last number. */
    storm: async ({ urls, targets }: { urls: string[]; targets: Record<string, number> }) => {
      gaps = 0;
      doubles = 0;
      const started = performance.now();
      const caughtUp = () => clients.every((c) => c.lastSeq >= (targets[c.spec.channel] ?? 0));
      const done = new Promise<void>((resolve) => {
        const check = () => {
          if (caughtUp()) {
            waiters = [];
            resolve();
          }
        };
        waiters = [check];
      });
      const failed = await inBatches(
        clients.map((client, i) => ({ client, url: urls[i % urls.length]! })),
        clients.length,
        ({ client, url }) => open(client, url, true),
      );
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      return {
        ms: performance.now() - started,
        failed,
        caughtUp: clients.filter((c) => c.lastSeq >= (targets[c.spec.channel] ?? 0)).length,
        gaps,
        doubles,
      };
    },
  });
}

// ---- coordinator ---------------------------------------------------------------------------------
export interface LatencyFigures {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}
export interface FanoutRun extends LatencyFigures {
  rate: number;
  published: number;
  failed: number;
  /** Of the latency, the durable store alone (publish call → stored), p99. */
  commitP99: number;
  gaps: number;
  doubles: number;
}
export interface RealtimeFigures {
  single: FanoutRun[];
  idle: { connections: number; failed: number; bytesPerConnection: number; heapPerConnection: number } | null;
  twoProcesses: FanoutRun | { skipped: string };
  storm: { clients: number; ms: number; caughtUp: number; failed: number; gaps: number; doubles: number } | null;
}

function percentiles(values: number[]): LatencyFigures {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: at(1) };
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function signIn(base: string, username: string): Promise<string> {
  const answer = await json<SignInResponse>(`${base}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `demo-${username}`, twiageClient: 'ems', platform: 'bench' }),
  });
  return answer.authorizationToken.token;
}

/** The channels of the fan-out: one case per crew (real cases: the subscription is checked) and the hospitals. */
async function fanoutSpecs(base: string, wsUrls: string[]) {
  const [medic, admin] = [await signIn(base, 'medic1'), await signIn(base, 'admin')];
  const cases: string[] = [];
  for (let i = 0; i < CREWS; i++) {
    const created = CreateCaseResponse.parse(
      await json(`${base}/v4/twiageCases?placeholder-${Date.now()}-${i}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: authorizationHeader(medic),
          'idempotency-key': `bench-${randomBytes(8).toString('hex')}`,
        },
        body: JSON.stringify({
          emsAgency: 'agency-riverside-ems',
          truck: 'truck-riverside-medic-1',
          beganAt: new Date().toISOString(),
        }),
      }),
    );
    cases.push(created.id);
  }
  const hospitals = Array.from({ length: HOSPITALS }, (_, i) => `hospital:bench-${i}`);
  const specs: SocketSpec[] = [];
  cases.forEach((id, i) => specs.push({ url: wsUrls[i % wsUrls.length]!, token: medic, channel: `case:${id}` }));
  for (let c = 0; c < CONSOLES_PER_HOSPITAL; c++) {
    hospitals.forEach((channel, h) => specs.push({ url: wsUrls[(h + c) % wsUrls.length]!, token: admin, channel }));
  }
  // A case event is a publish on its case and one on its hospital.
  const channels = cases.flatMap((id, i) => [`case:${id}`, hospitals[i % HOSPITALS]!]);
  return { specs, channels, medic };
}

async function fanout(servers: Worker[], clients: Worker, channels: string[], rate: number): Promise<FanoutRun> {
  const share = (ms: number) =>
    Promise.all(
      servers.map((server, i) =>
        server.call<{ published: number; failed: number; commit: LatencyFigures }>('publish', {
          channels: channels.filter((_, c) => c % servers.length === i),
          rate: rate / servers.length,
          ms,
        }),
      ),
    );
  await share(WARMUP_MS);
  await clients.call('measure', { on: true });
  const results = await share(MEASURE_MS);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const figures = await clients.call<LatencyFigures & { gaps: number; doubles: number }>('measure', { on: false });
  return {
    rate,
    published: results.reduce((sum, r) => sum + r.published, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
    commitP99: Math.max(...results.map((r) => r.commit.p99)),
    ...figures,
  };
}

const serverEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  JWT_SECRET,
  LOG_LEVEL: 'silent',
  SIGNIN_LIMIT_PER_ADDRESS: '100000',
  ...extra,
});

async function startServerWorker(env: Record<string, string>): Promise<{ worker: Worker; base: string; ws: string }> {
  const worker = await startWorker('--server', env);
  const port = await worker.call<number>('port');
  return { worker, base: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/realtime` };
}

async function singleProcess(figures: RealtimeFigures): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-rt-'));
  const clients = await startWorker('--clients');
  let server = await startServerWorker(serverEnv(dataDir, { BENCH_SEED: 'true' }));
  try {
    const { specs, channels, medic } = await fanoutSpecs(server.base, [server.ws]);
    const connected = await clients.call<{ open: number; failed: number }>('connect', { specs });
    if (connected.failed > 0) throw new Error(`${connected.failed} sockets failed to subscribe`);
    for (const rate of [1_000, 2_000]) figures.single.push(await fanout([server.worker], clients, channels, rate));

    // Reconnect storm: the server restarts (same data), publishes while nobody is connected, then every
    // client reconnects at once with its last number.
    await server.worker.stop();
    await clients.call('disconnectAll');
    server = await startServerWorker(serverEnv(dataDir));
    const stormChannels = [...new Set(specs.map((s) => s.channel))];
    const missed = await server.worker.call<{ lastSeq: Record<string, number> }>('publish', {
      channels: stormChannels,
      rate: 5_000,
      ms: Math.ceil((stormChannels.length * STORM_MISSED_PER_CHANNEL * 1000) / 5_000),
    });
    const storm = await clients.call<{ ms: number; caughtUp: number; failed: number; gaps: number; doubles: number }>(
      'storm',
      { urls: [server.ws], targets: missed.lastSeq },
    );
    figures.storm = { clients: specs.length, ...storm };
    await clients.call('disconnectAll');
    await clients.call('forget');

    // Idle connections: memory of the server process before and after.
    const before = await server.worker.call<NodeJS.MemoryUsage>('memory');
    const idleSpecs = Array.from({ length: IDLE_CONNECTIONS }, () => ({
      url: server.ws,
      token: medic,
      channel: 'broadcast:agency-riverside-ems',
    }));
    const idle = await clients.call<{ open: number; failed: number }>('connect', { specs: idleSpecs });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await server.worker.call<NodeJS.MemoryUsage>('memory');
    figures.idle = {
      connections: idle.open,
      failed: idle.failed,
      bytesPerConnection: (after.rss - before.rss) / Math.max(1, idle.open),
      heapPerConnection: (after.heapUsed + after.external - before.heapUsed - before.external) / Math.max(1, idle.open),
    };
    await clients.call('disconnectAll');
  } finally {
    await clients.stop();
    await server.worker.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function twoProcesses(): Promise<FanoutRun | { skipped: string }> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch {
    return { skipped: `PostgreSQL not reachable at ${PG_ADMIN_URL}` };
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch {
    await admin.end();
    return { skipped: `Redis not reachable at ${REDIS_URL}` };
  }
  const name = `inbound_bench_rt_${randomBytes(5).toString('hex')}`;
  const prefix = `inbound-bench-${randomBytes(5).toString('hex')}:`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-rt2-'));
  const env = serverEnv(dataDir, { DATABASE_URL: url.toString(), REDIS_URL, REDIS_KEY_PREFIX: prefix });
  const workers: Worker[] = [];
  try {
    const first = await startServerWorker({ ...env, BENCH_SEED: 'true' });
    workers.push(first.worker);
    const second = await startServerWorker(env);
    workers.push(second.worker);
    const clients = await startWorker('--clients');
    workers.push(clients);
    const { specs, channels } = await fanoutSpecs(first.base, [first.ws, second.ws]);
    const connected = await clients.call<{ failed: number }>('connect', { specs });
    if (connected.failed > 0) throw new Error(`${connected.failed} sockets failed to subscribe`);
    return await fanout([first.worker, second.worker], clients, channels, 1_000);
  } finally {
    for (const worker of workers.reverse()) await worker.stop();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runRealtimeFanout(): Promise<RealtimeFigures> {
  const figures: RealtimeFigures = { single: [], idle: null, twoProcesses: { skipped: 'not run' }, storm: null };
  await singleProcess(figures);
  figures.twoProcesses = await twoProcesses();
  return figures;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function printRealtimeFanout(figures: RealtimeFigures): void {
  const sockets = CREWS + HOSPITALS * CONSOLES_PER_HOSPITAL;
  console.info(
    `\nrealtime-fanout: ${CREWS} crew sockets + ${HOSPITALS * CONSOLES_PER_HOSPITAL} hospital consoles (${sockets}), ` +
      `durable publishes (publish call → socket), ${MEASURE_MS / 1000} s each`,
  );
  const row = (label: string, run: FanoutRun, p99Target: number, p999Target: number | null) => {
    console.info(
      `  ${pad(label, 30)} p50 ${padStart(ms(run.p50), 9)}  p99 ${padStart(ms(run.p99), 9)} (≤ ${p99Target} ms: ` +
        `${verdict(run.p99 <= p99Target)})  p99.9 ${padStart(ms(run.p999), 9)}` +
        (p999Target === null ? '' : ` (≤ ${p999Target} ms: ${verdict(run.p999 <= p999Target)})`),
    );
    console.info(
      `  ${pad('', 30)} ${run.published} published (${run.failed} failed), ${run.count} deliveries, ` +
        `gaps ${run.gaps}, doubles ${run.doubles}, max ${ms(run.max)}; the store alone p99 ${ms(run.commitP99)}`,
    );
  };
  for (const run of figures.single) {
    if (run.rate === 1_000) row('1,000/s, one process, SQLite', run, TARGETS.p99At1000Ms, TARGETS.p999At1000Ms);
    else row(`${run.rate.toLocaleString('en')}/s, one process, SQLite`, run, TARGETS.p99At2000Ms, null);
  }
  if ('skipped' in figures.twoProcesses) console.info(`  two processes: skipped (${figures.twoProcesses.skipped})`);
  else row('1,000/s, two processes, PG+Redis', figures.twoProcesses, TARGETS.p99TwoProcessesMs, null);
  if (figures.idle) {
    const i = figures.idle;
    console.info(
      `  idle connections: ${i.connections} open (${i.failed} failed): ${(i.bytesPerConnection / 1024).toFixed(1)} KB RSS ` +
        `each (≤ ${TARGETS.bytesPerIdleConnection / 1024} KB: ${verdict(i.bytesPerConnection <= TARGETS.bytesPerIdleConnection)}), ` +
        `${(i.heapPerConnection / 1024).toFixed(1)} KB of it JS heap + buffers`,
    );
  }
  if (figures.storm) {
    const s = figures.storm;
    const ok = s.caughtUp === s.clients && s.gaps === 0 && s.doubles === 0;
    console.info(
      `  reconnect storm: ${s.clients} clients, about ${STORM_MISSED_PER_CHANNEL} missed messages per channel: ` +
        `${s.caughtUp} caught up in ${ms(s.ms)} (≤ ${TARGETS.reconnectStormMs / 1000} s: ` +
        `${verdict(s.ms <= TARGETS.reconnectStormMs && ok)}); failed ${s.failed}, gaps ${s.gaps}, doubles ${s.doubles}`,
    );
  }
}

const role = process.argv[2];
if (role === '--server') await serverRole();
else if (role === '--clients') clientsRole();
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRealtimeFanout(await runRealtimeFanout());
}
