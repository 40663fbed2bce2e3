/**
 * Per-process state that several processes share through Redis (issue 11, shared-state.ts): a session
 * revoked on one process is refused by the other at once — not after AUTH_CACHE_TTL, set to a minute
 * here so only the announcement can do it — and the transfer-code guess limit counts misses made on
 * either process. Two `buildApp` instances on one database and one Redis, as in realtime.redis.test.ts.
 * Without Redis the tests are skipped with a printed reason — except under CI=true.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, routes } from '@inbound/contract';
import { buildApp } from './app.js';
import { demoPassword, IDS } from './seed/demo-data.js';
import { createTestApp, testConfig, type TestApp } from './test/app.js';
import { RIVERSIDE_TRUCK, send } from './test/crew-api.js';
import { testDialects } from './test/databases.js';
import { CODE_MISSES_PER_MINUTE } from './modules/transfers/guess-limit.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const reachable = await redisReachable();
if (!reachable) {
  const message = `Redis not reachable at ${REDIS_URL}: shared-state tests skipped`;
  if (process.env.CI === 'true') throw new Error(`${message} — but CI=true requires them`);
  console.warn(message);
}
const dialects = reachable ? await testDialects() : [];

describe.skipIf(!reachable).each(dialects)('state two processes share through Redis (%s)', (dialect) => {
  const prefix = `inbound-test-${randomBytes(6).toString('hex')}:`;
  let first: TestApp;
  let second: FastifyInstance;
  const onSecond = () => ({ ...first, app: second });

  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, AUTH_CACHE_TTL: '60000' };
    first = await createTestApp({ dialect, env });
    second = await buildApp(testConfig(env), { database: first.database, clock: first.clock });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const me = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'GET', url: routes.me.path, headers: { authorization: authorizationHeader(token) } });

  /** Polls until the answer's status is `status` (the announcement crosses Redis: a moment, not a TTL). */
  async function eventually(check: () => Promise<number>, status: number): Promise<number> {
    const deadline = Date.now() + 10_000;
    let seen = await check();
    while (seen !== status && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await check();
    }
    return seen;
  }

  it('refuses a token signed out on the other process at once, with a minute-long principal cache', async () => {
    const token = await first.signIn('medic1');
    // The second process has checked the token, so its principal is cached there for a minute.
    expect((await me(second, token)).statusCode).toBe(200);
    expect((await me(second, token)).statusCode).toBe(200);
    expect((await first.post(routes.signOut.path, undefined, token)).statusCode).toBeLessThan(300);
    expect(await eventually(async () => (await me(second, token)).statusCode, 401)).toBe(401);
  });

  it("refuses a user's other sessions on every process once the password is changed", async () => {
    const kept = await first.signIn('medic2');
    const other = await first.signIn('medic2');
    expect((await me(second, other)).statusCode).toBe(200);
    const newPassword = `Sturdy-new-passphrase-${randomBytes(4).toString('hex')}`;
    const changed = await first.app.inject({
      method: 'POST',
      url: routes.changePassword.path,
      headers: { authorization: authorizationHeader(kept) },
      payload: { currentPassword: demoPassword('medic2'), newPassword, verifyPassword: newPassword },
    });
    expect(changed.statusCode).toBe(200);
    expect(await eventually(async () => (await me(second, other)).statusCode, 401)).toBe(401);
    // The session that changed it goes on, on both processes.
    expect((await me(second, kept)).statusCode).toBe(200);
  });

  it('counts transfer-code guesses made on either process against one limit', async () => {
    const token = await first.signIn('medic1');
    const body = { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK };
    const guess = (on: TestApp, code: string) =>
      send(on, 'POST', buildPath(routes.requestTransfer.path, { code }), token, { body, key: null });
    for (let i = 0; i < CODE_MISSES_PER_MINUTE; i += 1) {
      const response = await guess(i % 2 === 0 ? first : onSecond(), String(900_000 + i));
      expect(response.statusCode).toBe(404);
    }
    // Each process alone saw half the misses; together they are the minute's limit.
    expect((await guess(first, '999998')).statusCode).toBe(429);
    expect((await guess(onSecond(), '999999')).statusCode).toBe(429);
  });
});
