/**
 * The real server started as `npm start` starts it, with WORKERS=N behind one port, on a fresh
 * PostgreSQL database and Redis key prefix — for tests of several processes, drains and rolling
 * restarts. Requests go over a fresh connection each (`agent: false`) unless given an agent, so the
 * cluster's round robin spreads them over the workers; each answer names its worker (Inbound-Worker).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authorizationHeader } from '@inbound/contract';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

export interface Answer {
  status: number;
  worker: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = unknown>(): T;
}

export interface ClusterServer {
  url: string;
  port: number;
  /** Lines the primary and workers printed (stdout and stderr). */
  output: string[];
  /** Waits until a printed line matches, counting lines printed from `from` on. */
  waitForLine(pattern: RegExp, count?: number, timeoutMs?: number): Promise<void>;
  /** Asks the primary for a rolling restart (SIGHUP). */
  rollingRestart(): void;
  stop(): Promise<void>;
}

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

export async function startCluster(env: Record<string, string>): Promise<ClusterServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-cluster-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      SIGNIN_LIMIT_PER_ADDRESS: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const wakers = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    for (const wake of wakers) wake();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const waitForLine = (pattern: RegExp, count = 1, timeoutMs = 90_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.filter((line) => pattern.test(line)).length >= count) {
          done();
          resolve();
        } else if (child.exitCode !== null) {
          done();
          reject(new Error(`server exited (${child.exitCode}):\n${output.join('\n')}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${count}× ${pattern} within ${timeoutMs} ms:\n${output.join('\n')}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        wakers.delete(check);
      };
      wakers.add(check);
      check();
    });

  const server: ClusterServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    output,
    waitForLine,
    rollingRestart: () => child.kill('SIGHUP'),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitForLine(/server listening on/);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Reuse this agent's connection (same worker); by default a fresh connection per call. */
  agent?: Agent;
  raw?: Buffer;
}

export function call(server: { url: string }, method: string, url: string, options: CallOptions = {}): Promise<Answer> {
  const target = new URL(url, server.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = authorizationHeader(options.token);
  let payload: Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] = 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const worker = res.headers['inbound-worker'];
          resolve({
            status: res.statusCode ?? 0,
            worker: typeof worker === 'string' ? worker : null,
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
