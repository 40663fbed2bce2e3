/**
 * Position report → arrival shown on the board (issue 15, "Figures"; target p95 ≤ 1 s). Printed beside
 * the target, never asserted.
 *
 * The real server (child process, SQLite, demo data). ed1's console connection: a WebSocket on
 * `hospital:{Riverside}` as the console holds it. Trucks of medic1, each on a case to Riverside that
 * has already entered the geofence (a report inside it, 61 s ago). Open loop: the arriving reports
 * (the one that completes the dwell) go out on a Poisson schedule whatever the server's answers do,
 * over a background of position reports of other trucks on the road (outside the fence) at a steady
 * rate; each arriving report is timed from the moment it is sent to the `case.updated` message whose
 * card says arrived, on the console's socket. CPU: the server's process group CPU over the run ÷ the
 * requests answered. Three runs; the median of each figure.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { authorizationHeader } from '@inbound/contract';
import { signInAs, subscribe } from './lib/console';
import { verdict } from './lib/format';
import { freePort, startServer, type BenchServer } from './lib/server';

export const TARGET_P95_MS = 1_000;
const RIVERSIDE = 'hospital-riverside-regional';
const BAY = { latitude: 41.4993, longitude: -81.6944 };
const ARRIVALS_PER_RUN = Number(process.env.BENCH_ARRIVALS ?? 60);
const ARRIVALS_PER_S = Number(process.env.BENCH_ARRIVALS_PER_S ?? 5);
const BACKGROUND_PER_S = Number(process.env.BENCH_BACKGROUND_PER_S ?? 30);
const BACKGROUND_TRUCKS = 20;
const RUNS = 3;

export interface RunFigures {
  p50: number;
  p95: number;
  p99: number;
  missing: number;
  cpuUsPerRequest: number;
  requests: number;
}

function crew(url: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        Authorization: authorizationHeader(token),
        'Idempotency-Key': randomUUID(),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
}

async function newCase(call: ReturnType<typeof crew>): Promise<string> {
  const created = await call('POST', `/v4/twiageCases?placeholderId=placeholder-${randomUUID()}`, {
    emsAgency: 'agency-riverside-ems',
    truck: 'truck-riverside-medic-1',
    beganAt: new Date().toISOString(),
  });
  const id = String(created.id);
  await call('PATCH', `/v4/twiageCases/${id}`, { destinationHospital: RIVERSIDE });
  return id;
}

/** The console's socket: resolves each case's arrival message time. */
async function consoleSocket(server: BenchServer, token: string) {
  const arrivedAt = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const socket = await subscribe(server.url, token, `hospital:${RIVERSIDE}`, (frame, at) => {
    const data = frame.event.data as { caseId?: string; card?: { arrival?: unknown } | null };
    if (data.caseId && data.card?.arrival && !arrivedAt.has(data.caseId)) {
      arrivedAt.set(data.caseId, at);
      waiters.get(data.caseId)?.();
    }
  });
  return {
    arrivedAt,
    wait: (caseId: string, timeoutMs: number) =>
      new Promise<void>((resolve) => {
        if (arrivedAt.has(caseId)) return resolve();
        const timer = setTimeout(resolve, timeoutMs);
        waiters.set(caseId, () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    close: socket.close,
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const exponential = (ratePerS: number) => (-Math.log(1 - Math.random()) / ratePerS) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oneRun(server: BenchServer, call: ReturnType<typeof crew>, edToken: string): Promise<RunFigures> {
  const board = await consoleSocket(server, edToken);
  // Set-up (not measured): the arriving trucks, each already inside the fence 61 s ago; the others on the road.
  const arriving: string[] = [];
  for (let i = 0; i < ARRIVALS_PER_RUN; i++) {
    const id = await newCase(call);
    await call('POST', `/v4/twiageCases/${id}/locationUpdates`, {
      ...BAY,
      accuracy: 8,
      recordedAt: new Date(Date.now() - 61_000).toISOString(),
    });
    arriving.push(id);
  }
  const road: string[] = [];
  for (let i = 0; i < BACKGROUND_TRUCKS; i++) road.push(await newCase(call));

  const sentAt = new Map<string, number>();
  let requests = 0;
  let stop = false;
  const cpuBefore = server.cpuSeconds();
  // Background: trucks 5–20 km out, reporting at a steady total rate.
  const background = (async () => {
    const pending: Promise<unknown>[] = [];
    for (let n = 0; !stop; n++) {
      const id = road[n % road.length]!;
      pending.push(
        call('POST', `/v4/twiageCases/${id}/locationUpdates`, {
          latitude: BAY.latitude - 0.05 - (n % 100) / 1000,
          longitude: BAY.longitude,
          accuracy: 8,
        }).then(() => (requests += 1)),
      );
      await sleep(1000 / BACKGROUND_PER_S);
    }
    await Promise.all(pending);
  })();
  // The arriving reports, Poisson, not waiting for one another.
  const sends: Promise<unknown>[] = [];
  let at = performance.now();
  for (const id of arriving) {
    at += exponential(ARRIVALS_PER_S);
    const delay = at - performance.now();
    if (delay > 0) await sleep(delay);
    sentAt.set(id, performance.now());
    sends.push(
      call('POST', `/v4/twiageCases/${id}/locationUpdates`, { ...BAY, accuracy: 8 }).then(() => (requests += 1)),
    );
  }
  await Promise.all(sends);
  await Promise.all(arriving.map((id) => board.wait(id, 10_000)));
  stop = true;
  await background;
  const cpu = server.cpuSeconds() - cpuBefore;
  board.close();
  const latencies = arriving
    .filter((id) => board.arrivedAt.has(id))
    .map((id) => board.arrivedAt.get(id)! - sentAt.get(id)!)
    .sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    missing: arriving.length - latencies.length,
    cpuUsPerRequest: (cpu * 1e6) / Math.max(1, requests),
    requests,
  };
}

export async function runArrivalToBoard(): Promise<RunFigures> {
  const server = await startServer(await freePort());
  try {
    const crewToken = await signInAs(server.url, 'medic1', 'ems');
    const edToken = await signInAs(server.url, 'ed1', 'hospital');
    const call = crew(server.url, crewToken);
    const runs: RunFigures[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await oneRun(server, call, edToken));
    const median = (key: keyof RunFigures) => runs.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    for (const [i, x] of runs.entries())
      console.info(
        `  run ${i + 1}: p50 ${x.p50.toFixed(0)} ms, p95 ${x.p95.toFixed(0)} ms, p99 ${x.p99.toFixed(0)} ms, ` +
          `missing ${x.missing}, ${x.requests} reports, ${x.cpuUsPerRequest.toFixed(0)} µs CPU/report`,
      );
    return {
      p50: median('p50'),
      p95: median('p95'),
      p99: median('p99'),
      missing: median('missing'),
      cpuUsPerRequest: median('cpuUsPerRequest'),
      requests: median('requests'),
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.info(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores)`,
  );
  console.info(
    `position report → arrival on the board: ${ARRIVALS_PER_RUN} arrivals at ${ARRIVALS_PER_S}/s (Poisson) over ` +
      `${BACKGROUND_PER_S} position reports/s of trucks on the road; median of ${RUNS} runs`,
  );
  printArrivalToBoard(await runArrivalToBoard());
}

export function printArrivalToBoard(f: RunFigures): void {
  console.info(
    `p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms (target ≤ ${TARGET_P95_MS} ms) ${verdict(f.p95 <= TARGET_P95_MS)}, ` +
      `p99 ${f.p99.toFixed(0)} ms; arrivals never shown: ${f.missing}; server CPU ${f.cpuUsPerRequest.toFixed(0)} µs per position report`,
  );
}
