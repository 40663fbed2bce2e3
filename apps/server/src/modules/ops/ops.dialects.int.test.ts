/**
 * /metrics and /ready on each database dialect: who may scrape, the names the dashboard draws, the
 * figures that come from the database (pool on PostgreSQL, WAL size on SQLite), and readiness.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName, routes } from '@inbound/contract';
import { migrateDownAll, migrateDownTo, migrateToLatest, migrations, pendingMigrations } from '../../db/migrate.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createTestDatabase, testDialects } from '../../test/databases.js';
import { UNMATCHED_ROUTE } from './http-metrics.js';
import { createMetrics } from './metrics.js';
import { readinessChecks } from './instrument.js';
import { opsRoutes } from './ops.routes.js';

const dialects = await testDialects();

/** The value of one sample line, e.g. sample(text, 'inbound_realtime_sockets') or with labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(dialects)('ops routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  const scrape = (remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('answers /metrics to loopback only (and not through a proxy) when no token is set', async () => {
    expect((await scrape()).statusCode).toBe(200);
    expect((await scrape('::1')).statusCode).toBe(200);
    const remote = await scrape('10.1.2.3');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual({ message: 'Metrics are served to loopback only.' });
    expect((await scrape('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
  });

  it('counts requests by route pattern and status, never by URL', async () => {
    const token = await t.signIn('medic1');
    await t.get(routes.health.path);
    await t.get('/v4/twiageCases/00000000-0000-4000-8000-00000000dead', token);
    const text = (await scrape()).body;
    expect(sample(text, 'inbound_http_requests_total', { route: routes.health.path, status: '200' })).toBeGreaterThan(
      0,
    );
    expect(text).toContain('route="/v4/twiageCases/:id"');
    expect(text).not.toContain('00000000dead');
    expect(
      sample(text, 'inbound_http_request_duration_seconds_count', { route: routes.health.path, method: 'GET' }),
    ).toBeGreaterThan(0);
  });

  it('counts requests no route matched under one fixed label, never their URL', async () => {
    const before =
      sample((await scrape()).body, 'inbound_http_requests_total', {
        route: UNMATCHED_ROUTE,
        method: 'GET',
        status: '404',
      }) ?? 0;
    await t.get('/v4/no-such-route/secret-probe-1');
    await t.get('/v4/no-such-route/secret-probe-2');
    const text = (await scrape()).body;
    expect(
      (sample(text, 'inbound_http_requests_total', { route: UNMATCHED_ROUTE, method: 'GET', status: '404' }) ?? 0) -
        before,
    ).toBe(2);
    expect(text).not.toContain('secret-probe');
    // The histogram writes the buckets prom-client would: cumulative, ending with +Inf = count.
    const count = sample(text, 'inbound_http_request_duration_seconds_count', {
      route: UNMATCHED_ROUTE,
      method: 'GET',
    });
    expect(sample(text, 'inbound_http_request_duration_seconds_bucket', { route: UNMATCHED_ROUTE, le: '+Inf' })).toBe(
      count,
    );
  });

  it('reports process, real-time, media, push and database figures under the dashboard names', async () => {
    // A published message counts toward the delivery latency; subscriptions come from a real socket in
    // the gateway tests, here the gauge reads zero sockets.
    await t.app.realtime.publish(channelName('user', 'ops-test'), { type: 'ops.test', data: {} });
    const text = (await scrape()).body;
    expect(sample(text, 'inbound_process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'inbound_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'inbound_realtime_sockets')).toBe(0);
    expect(sample(text, 'inbound_realtime_delivery_seconds_count', { via: 'local' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'inbound_media_conversion_queue', { state: 'waiting' })).toBe(0);
    expect(text).toContain('# TYPE inbound_media_conversion_seconds histogram');
    expect(text).toContain('# TYPE inbound_push_sends_total counter');
    if (dialect === 'postgres') {
      expect(sample(text, 'inbound_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'inbound_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'inbound_sqlite_wal_bytes')).toBeUndefined();
    } else {
      // The seed and the sign-in wrote through the WAL.
      expect(sample(text, 'inbound_sqlite_wal_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'inbound_db_pool_connections', { state: 'in_use' })).toBeUndefined();
    }
  });

  it('is ready when the database answers, every migration is applied and the broker answers', async () => {
    const res = await t.get('/ready');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', broker: 'ok' } });
  });

  it('rolls an upgrade back by one version (down-to the previous migration), and forward again', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const names = Object.keys(migrations);
      expect(await migrateDownTo(database.db, names.at(-2)!)).toEqual([names.at(-1)]);
      expect(await pendingMigrations(database.db)).toEqual([names.at(-1)]);
      await migrateToLatest(database.db);
      expect(await pendingMigrations(database.db)).toEqual([]);
    } finally {
      await database.destroy();
    }
  });

  it('is not ready when a migration is missing, and says which check failed without the reason', async () => {
    const database = await createTestDatabase(dialect);
    await migrateDownAll(database.db);
    const app = Fastify();
    opsRoutes(app, {
      metrics: createMetrics({ defaultMetrics: false }),
      metricsToken: null,
      readiness: readinessChecks(database, () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:6379'))),
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not ready',
        checks: { database: 'ok', migrations: 'failed', broker: 'failed' },
      });
      expect(res.body).not.toContain('10.0.0.7');
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

describe('ops routes with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'scrape-token-0123456789abcdef';
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t.close());

  it('asks every scraper, loopback too, for the Bearer token', async () => {
    const scrape = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers });
    expect((await scrape({})).statusCode).toBe(401);
    expect((await scrape({ authorization: `Bearer ${token}x` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const ok = await scrape({ authorization: `Bearer ${token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
  });
});

describe('the Grafana dashboard and METRICS_ENABLED', () => {
  it('draws only metric names the server exposes (docs/grafana-dashboard.json)', async () => {
    const file = path.resolve(import.meta.dirname, '../../../../../docs/grafana-dashboard.json');
    const dashboard = readFileSync(file, 'utf8');
    const drawn = new Set(
      [...dashboard.matchAll(/\binbound_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')),
    );
    const t = await createTestApp();
    try {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const exposed = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
      // The pool gauge exists on PostgreSQL only (checked in the dialect tests above).
      const missing = [...drawn].filter((name) => !exposed.has(name) && name !== 'inbound_db_pool_connections');
      expect(missing).toEqual([]);
      expect(drawn.size).toBeGreaterThan(15);
    } finally {
      await t.close();
    }
  });

  it('METRICS_ENABLED=false serves no /metrics but still /ready', async () => {
    const t = await createTestApp({ env: { METRICS_ENABLED: 'false' } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      expect((await t.get('/ready')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
