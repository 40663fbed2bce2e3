/**
 * What the metrics cost per request — target ≤ 5 % more server CPU with /metrics enabled (issue 18,
 * "Figures").
 *
 * Four servers side by side, the same code, two with METRICS_ENABLED=true (the default: per-request
 * counter and histogram, process figures collected, scraped every 15 s — a common Prometheus interval;
 * each scrape costs a few ms of CPU) and two with METRICS_ENABLED=false, started in the order on, off,
 * off, on (ABBA: the order of start cancels out). Each server is `node --import tsx` alone, without npx
 * (bench/lib/server.ts `serverOnly`): npm's process under npx burned 0.5–7.5 ms of CPU per second while
 * its server idled, differently in each server, which at 150 req/s is up to +50 µs per request on one
 * server of four. Each round loads all four at once, open loop at a fixed offered rate (BENCH_RATE
 * requests/s each, so a slow server does not get fewer requests), for BENCH_DURATION_S seconds: the
 * server's CPU seconds over the requests answered = CPU µs per request. The figure is the median, over
 * BENCH_ROUNDS rounds (7), of each round's on ÷ off (each side the mean of its two servers): both sides of
 * a round ran under the same machine load, so their ratio varies less than either side does. Each
 * server's own median is printed too: the two "on" servers must agree, else one server (not the
 * metrics) makes the difference. The warm-up round sends the rounds' own requests (signed in for
 * users/me), so the rounds measure compiled code. The fixed cost (CPU per second of an unloaded server
 * over one scrape interval: the server's own timers — outbox relay, sweeps — event-loop sampling, the
 * scrape) is measured first and printed; the per-request figure is then also given with that fixed cost
 * taken out, since at BENCH_RATE it is spread over few requests. The direct cost of recording one
 * request (counter + histogram) and the request path on vs off in one process (inject) are printed
 * last. Never asserts.
 *
 * BENCH_AA=1 runs the same comparison with metrics on in all four servers (and all four scraped): the
 * "overhead" it prints is then the noise of the method on this machine at this moment — an A/B figure
 * smaller than it cannot be read.
 *
 * To compare two variants of the server rather than on/off: BENCH_ON_ENV / BENCH_OFF_ENV (JSON) add
 * environment to servers 1 and 4 / 2 and 3 (e.g. BENCH_OFF_ENV='{"METRICS_ENABLED":"true"}' is an A/A
 * with the "off" servers scraped too); every server with metrics on is scraped. BENCH_CALLS=users/me
 * runs one call only; BENCH_IN_PROCESS=0 skips the in-process figures.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { authorizationHeader, routes, type SignInResponse } from '@inbound/contract';
import { pad, padStart, verdict } from './lib/format';
import { createMetrics } from '../apps/server/src/modules/ops/metrics';
import { coresUsed, freePort, REPO_ROOT, startServer, type BenchServer } from './lib/server';

export const OVERHEAD_TARGET = 0.05;
const RATE = Number(process.env.BENCH_RATE ?? 150);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONNECTIONS = 20;
const SCRAPE_EVERY_MS = 15_000;
const IDLE_S = SCRAPE_EVERY_MS / 1000;
/** A/A: metrics on in all four servers, to see the method's noise. */
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

async function load(server: BenchServer, path: string, token: string | null, idleCores: number) {
  const cores = coresUsed(server.cpuSeconds);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: DURATION_S,
    requests: [{ method: 'GET', path, headers: token ? { authorization: authorizationHeader(token) } : {} }],
  });
  const cpuSeconds = cores() * DURATION_S;
  const answered = result.requests.total - result.non2xx;
  const perRequest = (seconds: number) => (answered > 0 ? (seconds * 1e6) / answered : NaN);
  return {
    us: perRequest(cpuSeconds),
    /** The fixed cost per second taken out: what each further request costs. */
    marginalUs: perRequest(cpuSeconds - idleCores * DURATION_S),
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

/** The request path alone, on vs off, in one process: apps/server/src/modules/ops/metrics-ab.ts. */
function inProcessAb(): { onUs: number; offUs: number } {
  const out = execFileSync('npx', ['tsx', 'apps/server/src/modules/ops/metrics-ab.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { onUs: number; offUs: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runMetricsOverhead(): Promise<{ call: string; onUs: number; offUs: number; overhead: number }[]> {
  const servers: BenchServer[] = [];
  const scraped: BenchServer[] = [];
  for (const [i, enabled] of (AA ? [true, true, true, true] : [true, false, false, true]).entries()) {
    const side = i === 0 || i === 3 ? 'BENCH_ON_ENV' : 'BENCH_OFF_ENV';
    const env = { ...LIMITS, METRICS_ENABLED: String(enabled), ...sideEnv(side) };
    const server = await startServer(await freePort(), env, { serverOnly: true });
    servers.push(server);
    if (env.METRICS_ENABLED === 'true') scraped.push(server);
  }
  const scraper = setInterval(() => {
    for (const server of scraped)
      fetch(`${server.url}/metrics`)
        .then((r) => r.text())
        .catch(() => undefined);
  }, SCRAPE_EVERY_MS);
  const figures: { call: string; onUs: number; offUs: number; overhead: number }[] = [];
  try {
    const tokens = await Promise.all(servers.map((server) => signIn(server.url)));
    const calls = [
      { name: 'users/me', path: routes.me.path, auth: true },
      { name: 'health', path: routes.health.path, auth: false },
    ].filter((call) => !CALLS || CALLS.includes(call.name));
    console.info(
      `\n== metrics overhead${AA ? ' — A/A (metrics on in all four: "on" = servers 1 and 4, "off" = 2 and 3; the difference is noise)' : ''}: CPU µs per request, metrics on vs off, both loaded at once, open loop ${RATE} req/s each of 4 servers (ABBA), ${DURATION_S} s × ${ROUNDS} (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    const idle = await Promise.all(servers.map(idleCoresUsed));
    const idleOn = (idle[0]! + idle[3]!) / 2;
    const idleOff = (idle[1]! + idle[2]!) / 2;
    console.info(
      `  fixed cost, unloaded over ${IDLE_S} s (one scrape): on ${(idleOn * 1000).toFixed(2)} ms CPU/s, off ${(idleOff * 1000).toFixed(2)} ms CPU/s`,
    );
    for (const call of calls) {
      // Warm-up with the same requests as the rounds (signed in where the call is), so the rounds measure
      // compiled code, not the first requests' compilation.
      await Promise.all(servers.map((server, i) => load(server, call.path, call.auth ? tokens[i]! : null, idle[i]!)));
      const onUs: number[] = [];
      const offUs: number[] = [];
      const onMarginal: number[] = [];
      const offMarginal: number[] = [];
      const p99: string[] = [];
      const perServer: number[][] = servers.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        const [a1, b1, b2, a2] = await Promise.all(
          servers.map((server, i) => load(server, call.path, call.auth ? tokens[i]! : null, idle[i]!)),
        );
        onUs.push((a1!.us + a2!.us) / 2);
        offUs.push((b1!.us + b2!.us) / 2);
        onMarginal.push((a1!.marginalUs + a2!.marginalUs) / 2);
        offMarginal.push((b1!.marginalUs + b2!.marginalUs) / 2);
        p99.push(`${Math.max(a1!.p99, a2!.p99)}/${Math.max(b1!.p99, b2!.p99)}`);
        perServer.forEach((list, i) => list.push([a1, b1, b2, a2][i]!.us));
      }
      // Both sides of one round ran at once, under the same machine load: their ratio is the figure of
      // that round, and the median of those ratios moves less than a ratio of medians taken apart.
      const ratios = onUs.map((on, round) => on / offUs[round]!);
      const overhead = median(ratios) - 1;
      const onMedian = median(onUs);
      const offMedian = median(offUs);
      const marginalOverhead = median(onMarginal.map((on, round) => on / offMarginal[round]!)) - 1;
      figures.push({ call: call.name, onUs: onMedian, offUs: offMedian, overhead });
      console.info(
        `  ${pad(call.name, 10)} overhead ${padStart((overhead * 100).toFixed(1), 5)} % (median of ${ROUNDS} rounds' on ÷ off; target ≤ ${OVERHEAD_TARGET * 100} %) ${verdict(overhead <= OVERHEAD_TARGET)}   CPU per request on ${padStart(onMedian.toFixed(0), 5)} µs  off ${padStart(offMedian.toFixed(0), 5)} µs (medians), load average ${loadavg()[0]!.toFixed(2)}`,
      );
      console.info(
        `  ${pad('', 10)} rounds: ${ratios.map((r) => `${((r - 1) * 100).toFixed(0)} %`).join(' ')}; on ${onUs.map((u) => u.toFixed(0)).join('/')} off ${offUs.map((u) => u.toFixed(0)).join('/')} µs; p99 on/off ms ${p99.join(' ')}`,
      );
      // One server apart from the three others points at that server (its start, its position), not at
      // the metrics: the A/B needs the two "on" servers to agree.
      console.info(
        `  ${pad('', 10)} per server (on, off, off, on), median µs: ${perServer.map((list) => median(list).toFixed(0)).join(' / ')}`,
      );
      console.info(
        `  ${pad('', 10)} per request with the fixed cost apart: on ${padStart(median(onMarginal).toFixed(0), 5)} µs  off ${padStart(median(offMarginal).toFixed(0), 5)} µs  overhead ${padStart((marginalOverhead * 100).toFixed(1), 5)} % ${verdict(marginalOverhead <= OVERHEAD_TARGET)}`,
      );
    }
    if (!IN_PROCESS) return figures;
    console.info(`  recording one request in-process (counter + histogram): ${recordCostUs().toFixed(2)} µs CPU`);
    const ab = inProcessAb();
    const abOverhead = ab.onUs / ab.offUs - 1;
    console.info(
      `  request path in one process (inject, users/me, median of 5 × 3,000): on ${ab.onUs.toFixed(1)} µs  off ${ab.offUs.toFixed(1)} µs  overhead ${(abOverhead * 100).toFixed(1)} % (target ≤ ${OVERHEAD_TARGET * 100} %) ${verdict(abOverhead <= OVERHEAD_TARGET)}`,
    );
    console.info(`  load average after: ${loadavg()[0]!.toFixed(2)} (2 cores; other work inflates both sides alike)`);
  } finally {
    clearInterval(scraper);
    for (const server of servers) await server.stop();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await runMetricsOverhead();
