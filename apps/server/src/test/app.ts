/**
 * An app for API tests: a seeded database of the chosen dialect, a movable clock, and helpers that
 * sign the demo users in. Built with `app.inject`, so no port is opened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { DestinationStream } from 'pino';
import { authorizationHeader, routes } from '@inbound/contract';
import { buildApp, type AppConfig, type BuildOptions } from '../app.js';
import { parseConfig } from '../config.js';
import type { DialectName } from '../db/database.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { demoPassword } from '../seed/demo-data.js';
import { seedDemoData } from '../seed/seed.js';
import { createTestClock, type TestClock } from './clock.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

// argon2 is slow on purpose; the same demo passwords need hashing only once per test file.
const hashCache = new Map<string, Promise<string>>();
export const cachedHash = (password: string): Promise<string> => {
  let hashed = hashCache.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashCache.set(password, hashed);
  }
  return hashed;
};

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export function testConfig(overrides: Record<string, string> = {}, dataDir?: string): AppConfig {
  const result = parseConfig({
    DATA_DIR: dataDir ?? path.join(tmpdir(), 'inbound-unused'),
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    CREW_DIST: path.join(tmpdir(), 'inbound-no-crew-dist'),
    HOSPITAL_DIST: path.join(tmpdir(), 'inbound-no-hospital-dist'),
    ...overrides,
  });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return { ...result.config, jwtSecret: TEST_SECRET };
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  clock: TestClock;
  config: AppConfig;
  signIn(username: string, password?: string): Promise<string>;
  /** GET/POST as a signed-in user (token as from signIn). */
  get(url: string, token?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect?: DialectName;
  env?: Record<string, string>;
  logStream?: DestinationStream;
  seed?: boolean;
  /** Web Push delivery (a local endpoint in push tests). */
  push?: BuildOptions['push'];
  /** False: the app never relays the case outbox (a process killed between commit and publish). */
  relayOutbox?: boolean;
  outboxPollMs?: number;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-data-'));
  const config = testConfig(options.env, dataDir);
  const clock = createTestClock();
  // TEST_DIALECT=postgres runs every API test file on PostgreSQL (slower; CI runs the *.int tests there).
  const database = await createTestDatabase(
    options.dialect ?? (process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite'),
  );
  if (options.seed !== false) await seedDemoData(database.db, { clock, hashPassword: cachedHash });
  const app = await buildApp(config, {
    database,
    clock,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.push ? { push: options.push } : {}),
    ...(options.relayOutbox === false ? { relayOutbox: false } : {}),
    ...(options.outboxPollMs ? { outboxPollMs: options.outboxPollMs } : {}),
  });

  const headers = (token?: string | null): Record<string, string> =>
    token ? { authorization: authorizationHeader(token), 'created-at': new Date().toISOString() } : {};

  const testApp: TestApp = {
    app,
    database,
    clock,
    config,
    async signIn(username, password = demoPassword(username)) {
      const res = await app.inject({
        method: 'POST',
        url: routes.signIn.path,
        payload: { username, password, twiageClient: 'ems', platform: 'web' },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
    },
    get: (url, token, extra = {}) => app.inject({ method: 'GET', url, headers: { ...headers(token), ...extra } }),
    post: (url, body, token) => app.inject({ method: 'POST', url, headers: headers(token), payload: body as object }),
    async close() {
      await app.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** Every error answer: a 4xx with a non-empty message. */
export function expectClientError(res: LightMyRequestResponse, status: number): { message: string; code?: string } {
  if (res.statusCode !== status) {
    throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  }
  const body = res.json() as { message?: unknown; code?: string };
  if (typeof body.message !== 'string' || body.message.length === 0) {
    throw new Error(`error answer without a message: ${res.body}`);
  }
  return body as { message: string; code?: string };
}
