/**
 * What the metrics cost per request — target ≤ 5 % more server CPU with /metrics enabled (issue 18,
 * "Figures").
 *
 * Each round starts two fresh servers, the same code, one with METRICS_ENABLED=true (the default:
 * per-request counter and histogram, process figures collected, scraped every 15 s — a common Prometheus
 * interval; each scrape costs a few ms of CPU) and one with METRICS_ENABLED=false, asked for /metrics at
 * the same times (a 404: what differs is only the metrics) — the "on" one started first in even rounds,
 * second in odd ones — and stops them at its end. Each server is `node --import tsx`
 * alone, without npx (bench/lib/server.ts `serverOnly`): npm's process under npx burned 0.5–7.5 ms of CPU
 * per second while its server idled. A round loads both at once, open loop at a fixed offered rate
 * (BENCH_RATE requests/s each, so a slow server does not get fewer requests), for BENCH_DURATION_S seconds
 * (20), after a warm-up of the same requests (signed in for users/me) and five scrapes of each server (a
 * server in service compiled its exposition long ago): the server's CPU seconds over the requests
 * answered = CPU µs per request. The figure is the median, over BENCH_ROUNDS rounds (6), of each round's
 * on ÷ off: both ran under the same machine load, so their ratio varies far less than either does.
 *
 * Why two servers for 20 s and not four for 8 s (sessions 7–10): with four servers and an 8 s window a
 * round's on ÷ off swung ±15 % and the median of seven came out at +12 % in two runs of three on a quiet
 * machine, while two servers loaded for 30 s, six rounds alternating which starts first, neither scraped,
 * gave on ÷ off between −4.5 % and +0.8 % in every round (2026-11-28, decision 0027's addendum). The
 * fixed cost (CPU per second of an unloaded server over one scrape interval: the server's own timers —
 * outbox relay, sweeps — event-loop sampling, the scrape) is measured in each round and printed; the
 * per-request figure is then also given with that fixed cost taken out, since at BENCH_RATE it is spread
 * over few requests. The direct cost of recording one request (counter + histogram), the metrics'
 * per-request work measured apart, and the request path on vs off in one process (inject) are printed
 * last. Never asserts.
 *
 * Run it as `BENCH_SERVER_CPUS=1 taskset -c 0 npx tsx bench/metrics-overhead.ts`: the servers on one core and
 * this process (autocannon) on the other. Unpinned, the three trade two cores and one run's rounds spread
 * −23…+47 % (users/me); pinned, −13…+17 % over three runs, and an A/A's median moved 0.4 %.
 *
 * BENCH_AA=1 runs the same comparison with metrics on in both servers: the "overhead" it prints is then
 * the noise of the method on this machine at this moment — an A/B figure smaller than it cannot be read.
 *
 * To compare two variants of the server rather than on/off: BENCH_ON_ENV / BENCH_OFF_ENV (JSON) add
 * environment to the "on" / "off" side's servers (e.g. BENCH_OFF_ENV='{"METRICS_ENABLED":"true"}' is an A/A
 * with metrics on in both). BENCH_CALLS=users/me runs one call only; BENCH_IN_PROCESS=0 skips the in-process
 * figures.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { authorizationHeader, routes, type SignInResponse } from '@inbound/contract';
import { pad, padStart, verdict } from './lib/format';
import Fastify, { type FastifyInstance } from 'fastify';
import { createMetrics } from '../apps/server/src/modules/ops/metrics';
import { opsRoutes } from '../apps/server/src/modules/ops/ops.routes';
import { coresUsed, freePort, REPO_ROOT, startServer, type BenchServer } from './lib/server';

export const OVERHEAD_TARGET = 0.05;
const RATE = Number(process.env.BENCH_RATE ?? 150);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WARM_UP_S = 5;
const CONNECTIONS = 20;
/** BENCH_SCRAPE_EVERY_MS=0: never scraped, to tell the scrape's fixed cost from the per-request one. */
const SCRAPE_EVERY_MS = Number(process.env.BENCH_SCRAPE_EVERY_MS ?? 15_000);
const IDLE_MS = 15_000;
const IDLE_S = IDLE_MS / 1000;
/** A/A: metrics on in both servers, to see the method's noise. */
const AA = process.env.BENCH_AA === '1';
const LIMITS = { SIGNIN_LIMIT_PER_ADDRESS: '100000000', SIGNIN_LIMIT_PER_ACCOUNT: '100000000' };
/** BENCH_ON_ENV / BENCH_OFF_ENV (JSON): more environment for one side, to compare two variants of the server. */
const sideEnv = (name: string): Record<string, string> =>
  JSON.parse(process.env[name] ?? '{}') as Record<string, string>;
/** BENCH_CALLS=users/me: only the calls named (comma-separated). */
const CALLS = process.env.BENCH_CALLS?.split(',');
/** BENCH_IN_PROCESS=0: skip the in-process figures. */
const IN_PROCESS = process.env.BENCH_IN_PROCESS !== '0';

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}${routes.signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'medic1', password: 'demo-medic1', twiageClient: 'ems', platform: 'web' }),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status}`);
  return ((await response.json()) as SignInResponse).authorizationToken.token;
}

/**
 * CPU seconds per wall second of an unloaded server over IDLE_S (one scrape interval, so it holds exactly
 * one scrape of a server with metrics on): the fixed cost — timers, process collectors, the scrape —
 * that a low request rate would otherwise spread over its few requests.
 */
async function idleCoresUsed(server: BenchServer): Promise<number> {
  const cores = coresUsed(server.cpuSeconds);
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  return cores();
}

async function load(server: BenchServer, path: string, token: string | null, idleCores: number, duration = DURATION_S) {
  const cores = coresUsed(server.cpuSeconds);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    overallRate: RATE,
    duration,
    requests: [{ method: 'GET', path, headers: token ? { authorization: authorizationHeader(token) } : {} }],
  });
  const cpuSeconds = cores() * duration;
  const answered = result.requests.total - result.non2xx;
  const perRequest = (seconds: number) => (answered > 0 ? (seconds * 1e6) / answered : NaN);
  return {
    us: perRequest(cpuSeconds),
    /** The fixed cost per second taken out: what each further request costs. */
    marginalUs: perRequest(cpuSeconds - idleCores * duration),
    p99: result.latency.p99,
    answered,
  };
}

/** CPU µs of `httpRequest` (the per-request work of the metrics), median of three runs of 200,000. */
function recordCostUs(): number {
  const metrics = createMetrics({ defaultMetrics: false });
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    const before = process.cpuUsage();
    for (let i = 0; i < 200_000; i++) metrics.httpRequest('/v4/users/me', 'GET', 200, 0.003);
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / 200_000);
  }
  return median(runs);
}

/**
 * What the metrics add to every request, measured apart from everything else: two bare Fastify apps with
 * the real ops routes (their per-route and not-found onResponse hooks, the elapsed time, the recording),
 * metrics on in one and off in the other, one trivial route each, taking turns by inject. Median over 15
 * rounds of 3,000 of on − off, CPU µs per request.
 */
async function perRequestWorkUs(): Promise<number> {
  const apps = await Promise.all(
    [createMetrics({ defaultMetrics: false }), null].map(async (metrics) => {
      const app = Fastify({ logger: false });
      opsRoutes(app, { metrics, metricsToken: null, readiness: [] });
      app.get('/x', async () => ({ ok: true }));
      await app.ready();
      return app;
    }),
  );
  const perRequest = async (app: FastifyInstance, n: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) await app.inject({ method: 'GET', url: '/x' });
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  };
  for (const app of apps) await perRequest(app, 5_000);
  const differences: number[] = [];
  for (let r = 0; r < 15; r++) {
    // The one going first alternates: the second pays for the first one's garbage.
    if (r % 2 === 0) {
      const on = await perRequest(apps[0]!, 3_000);
      differences.push(on - (await perRequest(apps[1]!, 3_000)));
    } else {
      const off = await perRequest(apps[1]!, 3_000);
      differences.push((await perRequest(apps[0]!, 3_000)) - off);
    }
  }
  await Promise.all(apps.map((app) => app.close()));
  return median(differences);
}

/** The request path alone, on vs off, in one process: apps/server/src/modules/ops/metrics-ab.ts. */
function inProcessAb(): { onUs: number; offUs: number; overhead: number } {
  const out = execFileSync('npx', ['tsx', 'apps/server/src/modules/ops/metrics-ab.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { onUs: number; offUs: number; overhead: number };
}

const scrape = (server: BenchServer): Promise<unknown> =>
  fetch(`${server.url}/metrics`)
    .then((r) => r.text())
    .catch(() => undefined);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
};

interface Side {
  us: number;
  marginalUs: number;
  p99: number;
}

/**
 * One round: two fresh servers, the "on" one started first in even rounds and second in odd ones, each call
 * warmed up and then measured with both loaded at once. Fresh processes each round because one process can
 * stand apart from others started alike for its whole life (a server 30–40 % above three others in session
 * 9's quiet runs, whichever side it was on): over rounds of new processes that falls to the median.
 */
async function round(index: number, calls: Call[], scraped: Set<BenchServer>) {
  const servers: { server: BenchServer; on: boolean }[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      // The "on" side: the first server in even rounds, the second in odd ones (metrics on in both in an A/A).
      const on = (i === 0) === (index % 2 === 0);
      const env = { ...LIMITS, METRICS_ENABLED: String(AA || on), ...sideEnv(on ? 'BENCH_ON_ENV' : 'BENCH_OFF_ENV') };
      const server = await startServer(await freePort(), env, { serverOnly: true });
      servers.push({ server, on });
      // Both are scraped: the "off" one answers 404. Any client that calls every 15 s beside the load —
      // a scraper, a load balancer's health check, a 404 — adds 10–30 % CPU per request to this bench's
      // users/me, with metrics off as much as on (decision 0027, "A second client"); scraping only one
      // side measured that, not the metrics.
      scraped.add(server);
    }
    const tokens = await Promise.all(servers.map(({ server }) => signIn(server.url)));
    // A server's first scrapes compile the exposition (14 ms of CPU in one process, then ~2.4 ms): a
    // server in service pays that once, so the round starts past it, as it does past the requests' own.
    for (const server of scraped) for (let i = 0; i < 5; i++) await scrape(server);
    const idle = await Promise.all(servers.map(({ server }) => idleCoresUsed(server)));
    const sides = (results: Side[], on: boolean) => {
      const mine = results.filter((_, i) => servers[i]!.on === on);
      const mean = (pick: (side: Side) => number) => mine.reduce((sum, side) => sum + pick(side), 0) / mine.length;
      return { us: mean((r) => r.us), marginalUs: mean((r) => r.marginalUs), p99: Math.max(...mine.map((r) => r.p99)) };
    };
    const byCall = new Map<string, { on: Side; off: Side; perServer: string }>();
    for (const call of calls) {
      const loadAll = (duration?: number) =>
        Promise.all(
          servers.map(({ server }, i) => load(server, call.path, call.auth ? tokens[i]! : null, idle[i]!, duration)),
        );
      // Warm-up with the rounds' own requests (signed in where the call is): the measure is of compiled code.
      await loadAll(WARM_UP_S);
      const results = await loadAll();
      const perServer = results.map((r, i) => `${servers[i]!.on ? 'on' : 'off'} ${r.us.toFixed(0)}`).join(', ');
      byCall.set(call.name, { on: sides(results, true), off: sides(results, false), perServer });
    }
    const idleOf = (on: boolean) => idle.find((_, i) => servers[i]!.on === on)!;
    return { byCall, idleOn: idleOf(true), idleOff: idleOf(false) };
  } finally {
    for (const { server } of servers) {
      scraped.delete(server);
      await server.stop();
    }
  }
}

interface Call {
  name: string;
  path: string;
  auth: boolean;
}

export async function runMetricsOverhead(): Promise<{ call: string; onUs: number; offUs: number; overhead: number }[]> {
  const scraped = new Set<BenchServer>();
  const scraper = setInterval(() => {
    if (SCRAPE_EVERY_MS === 0) return;
    for (const server of scraped) void scrape(server);
  }, SCRAPE_EVERY_MS || IDLE_MS);
  const calls: Call[] = [
    { name: 'users/me', path: routes.me.path, auth: true },
    { name: 'health', path: routes.health.path, auth: false },
  ].filter((call) => !CALLS || CALLS.includes(call.name));
  const figures: { call: string; onUs: number; offUs: number; overhead: number }[] = [];
  try {
    console.info(
      `\n== metrics overhead${AA ? ' — A/A (metrics on in both: the difference is noise)' : ''}: CPU µs per request, metrics on vs off, both loaded at once, open loop ${RATE} req/s each of 2 fresh servers per round ("on" started first, then second), ${DURATION_S} s × ${ROUNDS} rounds, ${process.env.BENCH_SERVER_CPUS ? `servers on core(s) ${process.env.BENCH_SERVER_CPUS}` : 'servers not pinned (BENCH_SERVER_CPUS)'} (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    const rounds = [];
    for (let index = 0; index < ROUNDS; index++) rounds.push(await round(index, calls, scraped));
    console.info(
      `  fixed cost, unloaded over ${IDLE_S} s (one scrape), median of rounds: on ${(median(rounds.map((r) => r.idleOn)) * 1000).toFixed(2)} ms CPU/s, off ${(median(rounds.map((r) => r.idleOff)) * 1000).toFixed(2)} ms CPU/s`,
    );
    for (const call of calls) {
      const of = rounds.map((r) => r.byCall.get(call.name)!);
      // Both sides of one round ran at once, under the same machine load: their ratio is the figure of
      // that round, and the median of those ratios moves less than a ratio of medians taken apart.
      const ratios = of.map(({ on, off }) => on.us / off.us);
      const overhead = median(ratios) - 1;
      const onMedian = median(of.map(({ on }) => on.us));
      const offMedian = median(of.map(({ off }) => off.us));
      const marginalOverhead = median(of.map(({ on, off }) => on.marginalUs / off.marginalUs)) - 1;
      figures.push({ call: call.name, onUs: onMedian, offUs: offMedian, overhead });
      console.info(
        `  ${pad(call.name, 10)} overhead ${padStart((overhead * 100).toFixed(1), 5)} % (median of ${ROUNDS} rounds' on ÷ off; target ≤ ${OVERHEAD_TARGET * 100} %) ${verdict(overhead <= OVERHEAD_TARGET)}   CPU per request on ${padStart(onMedian.toFixed(0), 5)} µs  off ${padStart(offMedian.toFixed(0), 5)} µs (medians), load average ${loadavg()[0]!.toFixed(2)}`,
      );
      console.info(
        `  ${pad('', 10)} rounds: ${ratios.map((r) => `${((r - 1) * 100).toFixed(0)} %`).join(' ')}; p99 on/off ms ${of.map(({ on, off }) => `${on.p99}/${off.p99}`).join(' ')}`,
      );
      // A server apart from the three beside it shows here, in its own round only.
      for (const [index, { perServer }] of of.entries())
        console.info(`  ${pad('', 10)} round ${index + 1}, per server µs: ${perServer}`);
      console.info(
        `  ${pad('', 10)} per request with the fixed cost apart: on ${padStart(median(of.map(({ on }) => on.marginalUs)).toFixed(0), 5)} µs  off ${padStart(median(of.map(({ off }) => off.marginalUs)).toFixed(0), 5)} µs  overhead ${padStart((marginalOverhead * 100).toFixed(1), 5)} % ${verdict(marginalOverhead <= OVERHEAD_TARGET)}`,
      );
    }
    if (!IN_PROCESS) return figures;
    console.info(`  recording one request in-process (counter + histogram): ${recordCostUs().toFixed(2)} µs CPU`);
    const work = await perRequestWorkUs();
    const me = figures.find((figure) => figure.call === 'users/me');
    console.info(
      `  per-request work of the metrics (hooks + elapsed time + recording, bare route, median of 15 rounds' on − off): ${work.toFixed(2)} µs CPU${me ? ` = ${((work / me.offUs) * 100).toFixed(1)} % of users/me's ${me.offUs.toFixed(0)} µs off (target ≤ ${OVERHEAD_TARGET * 100} %) ${verdict(work / me.offUs <= OVERHEAD_TARGET)}` : ''}`,
    );
    const ab = inProcessAb();
    const abOverhead = ab.overhead;
    console.info(
      `  request path in one process (inject, users/me, median of 21 rounds' on ÷ off, 1,000 each, turns alternating): on ${ab.onUs.toFixed(1)} µs  off ${ab.offUs.toFixed(1)} µs  overhead ${(abOverhead * 100).toFixed(1)} % (target ≤ ${OVERHEAD_TARGET * 100} %) ${verdict(abOverhead <= OVERHEAD_TARGET)}`,
    );
    console.info(`  load average after: ${loadavg()[0]!.toFixed(2)} (2 cores; other work inflates both sides alike)`);
  } finally {
    clearInterval(scraper);
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await runMetricsOverhead();
