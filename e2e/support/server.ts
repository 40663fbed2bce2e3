/**
 * Starting the real server for tests: `tsx apps/server/src/main.ts` from the repository root, on a fresh
 * DATA_DIR with the demo data seeded. The suite's main server is Playwright's `webServer` (see
 * playwright.config.ts, which uses `serverEnv`); a test that changes shared state (a password) starts a
 * private one with `startPrivateServer`, so it can never break the other tests.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_COMMAND = 'npx tsx apps/server/src/main.ts';

/** A TCP port free on 127.0.0.1 right now (the OS picks it), found synchronously for the config file. */
export function freePortSync(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/** The same, asynchronously, for fixtures. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function freshDataDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `inbound-${label}-`));
}

/**
 * The server's environment for tests. Sign-in limits are raised: every test signs in from 127.0.0.1 and
 * the same demo accounts sign in dozens of times a minute; the limits themselves are tested in the API tests.
 */
export function serverEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    SIGNIN_LIMIT_PER_ADDRESS: '100000',
    SIGNIN_LIMIT_PER_ACCOUNT: '100000',
  };
}

export interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

export async function waitForHealth(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server at ${url} did not answer /health within ${timeoutMs} ms`);
}

/** A server of the test's own; `env` adds to (or overrides) the usual test settings. */
export async function startPrivateServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = freshDataDir(`e2e-private-${port}`);
  const child = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...serverEnv(port, dataDir), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, 60_000, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/**
 * A server a test owns and may kill: SIGKILL (no shutdown hooks, as a power cut or an OOM kill) and a
 * restart on the same port and DATA_DIR, so the crew app finds it where it was, with what it committed.
 */
export interface OwnedServer extends RunningServer {
  port: number;
  dataDir: string;
  kill: () => Promise<void>;
  restart: () => Promise<void>;
}

export async function startOwnedServer(): Promise<OwnedServer> {
  const port = await freePort();
  const dataDir = freshDataDir(`e2e-owned-${port}`);
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const launch = async () => {
    const started = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...serverEnv(port, dataDir) },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    child = started;
    await waitForHealth(url, 60_000, started);
  };
  const signal = async (name: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null || !running.pid) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    process.kill(-running.pid, name); // the whole group: npx, tsx and node
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (running.exitCode === null && running.signalCode === null) process.kill(-running.pid, 'SIGKILL');
  };
  const kill = () => signal('SIGKILL');
  const stop = async () => {
    await signal('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, dataDir, kill, restart: launch, stop };
}
