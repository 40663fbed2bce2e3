/**
 * Starts the real server for a benchmark: `tsx apps/server/src/main.ts` from the repository root, bound
 * to 127.0.0.1 only, on a fresh temporary DATA_DIR with the demo data seeded. `stop()` ends it (its whole
 * process group) and removes the data.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface BenchServer {
  url: string;
  /** The server's fresh DATA_DIR (its SQLite file is `inbound.db` in it); removed by `stop()`. */
  dataDir: string;
  stop: () => Promise<void>;
  /** CPU seconds (user + system) the server's processes have used so far; 0 where /proc is missing. */
  cpuSeconds: () => number;
  /** The resident memory of the largest process of the server's group (MB); 0 where /proc is missing. */
  largestRssMb: () => number;
}

/** Linux reports process times in clock ticks; 100 per second on every common kernel. */
const CLOCK_TICKS_PER_S = 100;

/** Every live process's command name and its /proc/<pid>/stat fields after the name (pid 0 = field 3). */
function eachProcess(visit: (comm: string, fields: string[]) => void): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
    const close = stat.lastIndexOf(')');
    visit(stat.slice(stat.indexOf('(') + 1, close), stat.slice(close + 2).split(' '));
  }
}

/**
 * A process's CPU ticks: utime, stime; and cutime, cstime — the children it has reaped (a finished
 * ffmpeg of the server's, a PostgreSQL backend whose connection closed), whose time leaves the live
 * processes' counts when they end. A child still running is counted by itself, so nothing twice.
 */
const cpuTicks = (fields: string[]) =>
  Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);

/** CPU seconds used by the live processes of a process group and the children they reaped. */
export function groupCpuSeconds(groupId: number): number {
  let ticks = 0;
  eachProcess((_comm, fields) => {
    if (Number(fields[2]) === groupId) ticks += cpuTicks(fields); // pgrp
  });
  return ticks / CLOCK_TICKS_PER_S;
}

/**
 * CPU seconds used by this machine's PostgreSQL (the postmaster, its backends, WAL writer and the rest:
 * every process named `postgres`); 0 where /proc is missing. The database's share of a write, which the
 * server's own CPU figure leaves out.
 */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  eachProcess((comm, fields) => {
    if (comm === 'postgres') ticks += cpuTicks(fields);
  });
  return ticks / CLOCK_TICKS_PER_S;
}

/** The largest resident set (MB) among the live processes of a process group. */
export function groupLargestRssMb(groupId: number): number {
  const PAGE_KB = 4;
  let largest = 0;
  eachProcess((_comm, fields) => {
    if (Number(fields[2]) === groupId) largest = Math.max(largest, (Number(fields[21]) * PAGE_KB) / 1024); // rss, in pages
  });
  return largest;
}

/** Cores used between two readings of a CPU-seconds counter, over the wall time between them. */
export function coresUsed(cpuSeconds: () => number): () => number {
  const startCpu = cpuSeconds();
  const startWall = process.hrtime.bigint();
  return () => (cpuSeconds() - startCpu) / (Number(process.hrtime.bigint() - startWall) / 1e9);
}

/** This process's CPU seconds (the load generator's share). */
export const ownCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface StartOptions {
  /**
   * Run the server as `node --import tsx <entry>`, without npx and tsx's wrapper process, so the group's
   * CPU is the server's alone. Under npx, npm's own process sometimes burns several ms of CPU per second
   * while the server idles (0.5–7.5 ms/s, different in each of four servers started alike) — noise in a
   * per-request figure at a low request rate, and not the same for every server.
   */
  serverOnly?: boolean;
}

export async function startServer(
  port: number,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-'));
  // BENCH_SERVER_CPU_PROF=<dir>: the server runs under `node --cpu-prof` (written when it stops), to
  // see where a run's time goes. npx and tsx's wrapper are skipped then, so the profile is the server's.
  const profileDir = process.env.BENCH_SERVER_CPU_PROF;
  // BENCH_SERVER_ENTRY=<path>: another copy of the server (e.g. the code before a change), to compare
  // the two one run after the other on the same machine state.
  const entry = process.env.BENCH_SERVER_ENTRY ?? 'apps/server/src/main.ts';
  const [command, args] = profileDir
    ? ['node', ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', 'tsx', entry]]
    : options.serverOnly
      ? ['node', ['--import', 'tsx', entry]]
      : ['npx', ['tsx', entry]];
  // BENCH_SERVER_CPUS=<list>: the server pinned to those cores (`taskset -c`), e.g. away from the load
  // generator's, so a per-request CPU figure is not moved by the two trading cores.
  const cpus = process.env.BENCH_SERVER_CPUS;
  const [program, argv] = cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
  const child = spawn(program, argv, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      ...extraEnv,
    },
    // The server logs each request at info, as in production; the bench throws the lines away.
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with code ${child.exitCode} before answering /health`);
    }
    try {
      if ((await fetch(`${url}/health`)).ok) {
        // detached: the child leads its own process group, which holds npx, tsx and the server.
        const cpuSeconds = () => (child.pid ? groupCpuSeconds(child.pid) : 0);
        const largestRssMb = () => (child.pid ? groupLargestRssMb(child.pid) : 0);
        return { url, dataDir, stop, cpuSeconds, largestRssMb };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the server did not answer ${url}/health within 60 s`);
}
