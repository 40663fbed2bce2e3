import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSettings, HealthResponse, routes } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from './test/app.js';

describe('app: health, API docs, security headers, errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health needs no token and says what it runs on', async () => {
    const res = await t.get(routes.health.path);
    expect(res.statusCode).toBe(200);
    expect(HealthResponse.parse(res.json())).toMatchObject({
      status: 'ok',
      database: t.database.dialect,
      broker: 'memory',
    });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('serves an OpenAPI document generated from the contract, and Swagger UI', async () => {
    const json = await t.get('/api/docs/json');
    expect(json.statusCode).toBe(200);
    const doc = json.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of Object.values(routes)) {
      const openApiPath = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(doc.paths[openApiPath]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
    const signIn = doc.paths['/v4/auth/signin']!.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(signIn.requestBody.content['application/json']!.schema.required).toContain('username');
    const ui = await t.get('/api/docs', null, { accept: 'text/html' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('sends security headers with a CSP that fits the single-page apps', async () => {
    const res = await t.get(routes.health.path);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Plain http: no HSTS (issue 17 item 9); it is sent on https only, below.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when the request came over https (through a trusted proxy)', async () => {
    const behindProxy = await createTestApp({ env: { TRUST_PROXY: 'true' }, seed: false });
    try {
      const res = await behindProxy.get(routes.health.path, null, { 'x-forwarded-proto': 'https' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await behindProxy.close();
    }
  });

  it('serves no /api/docs in production unless API_DOCS=true', async () => {
    const production = await createTestApp({ env: { NODE_ENV: 'production' }, seed: false });
    const asked = await createTestApp({ env: { NODE_ENV: 'production', API_DOCS: 'true' }, seed: false });
    try {
      expectClientError(await production.get('/api/docs/json'), 404);
      expect((await asked.get('/api/docs/json')).statusCode).toBe(200);
    } finally {
      await production.close();
      await asked.close();
    }
  });

  it('allows no image origin but its own without MAP_TILE_URL, and tells the console so', async () => {
    const res = await t.get(routes.health.path);
    const imgSrc = /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(imgSrc).toBe("'self' data: blob:");
    const settings = await t.get(routes.consoleSettings.path, await t.signIn('ed1'));
    expect(ConsoleSettings.parse(settings.json())).toEqual({ mapTileUrl: null });
    expectClientError(await t.get(routes.consoleSettings.path), 401);
  });

  it('answers unknown API paths and methods with a JSON 404', async () => {
    expect(expectClientError(await t.get('/v4/nothing-here', null, { accept: 'text/html' }), 404).code).toBe(
      'not_found',
    );
    expectClientError(await t.app.inject({ method: 'DELETE', url: '/v4/users/me' }), 404);
  });
});

describe('static apps', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'inbound-dist-'));
    const crew = path.join(root, 'crew');
    const hospital = path.join(root, 'hospital');
    mkdirSync(path.join(crew, 'assets'), { recursive: true });
    mkdirSync(path.join(hospital, 'assets'), { recursive: true });
    writeFileSync(path.join(crew, 'index.html'), '<!doctype html><title>crew</title>');
    writeFileSync(path.join(crew, 'start.html'), '<!doctype html><title>crew start</title>');
    writeFileSync(path.join(crew, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(crew, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    writeFileSync(path.join(hospital, 'index.html'), '<!doctype html><title>hospital</title>');
    writeFileSync(path.join(hospital, 'assets', 'main-def456.js'), 'console.log(2)');
    t = await createTestApp({ env: { CREW_DIST: crew, HOSPITAL_DIST: hospital } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const html = { accept: 'text/html,application/xhtml+xml' };

  it('serves the crew app at / and its deep links, with no-cache on index.html', async () => {
    for (const url of ['/', '/team-selection', '/case?x=1']) {
      const res = await t.get(url, null, html);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>crew</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it("answers /start with start.html (Start's static shell), no-cache as index.html", async () => {
    for (const url of ['/start', '/start?from=push']) {
      const res = await t.get(url, null, html);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>crew start</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for good and the service worker not at all', async () => {
    const asset = await t.get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.get('/sw.js')).headers['cache-control']).toBe('no-cache');
    expect((await t.get('/assets/missing-1.js')).statusCode).toBe(404);
  });

  it('serves the hospital console at /hospital/ with its own fallback', async () => {
    for (const url of ['/hospital/', '/hospital/board/123']) {
      const res = await t.get(url, null, html);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>hospital</title>');
    }
    expect((await t.get('/hospital/assets/main-def456.js')).headers['cache-control']).toContain('immutable');
  });

  it('answers the console entry to clients that do not ask for HTML', async () => {
    for (const url of ['/hospital', '/hospital/']) {
      const res = await t.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>hospital</title>');
    }
  });

  it('never answers an API path with an index.html', async () => {
    for (const url of ['/v4/whatever', '/notification/x', '/api/nope', '/health/x', '/realtime/x']) {
      const res = await t.get(url, null, html);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
    }
  });
});

describe('unexpected failures', () => {
  it('answer 500 with a generic message and are logged once with the request id', async () => {
    const lines: string[] = [];
    const { Writable } = await import('node:stream');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: stream });
    try {
      const token = await t.signIn('medic1');
      await t.database.db.schema.dropTable('feedback').execute();
      const res = await t.post(
        routes.feedback.path,
        { message: 'x', clientInfo: { client: 'ems-web', clientVersion: '1' } },
        token,
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal server error.', code: 'internal' });
      expect(res.body).not.toMatch(/feedback|sqlite|table/i);
      const errors = lines.map((l) => JSON.parse(l) as { level: number; reqId?: string }).filter((e) => e.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.reqId).toBe(res.headers['x-request-id']);
    } finally {
      await t.close();
    }
  });
});

describe('app: MAP_TILE_URL', () => {
  const tileUrl = 'https://tiles.example.org:8443/osm/{z}/{x}/{y}.png';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAP_TILE_URL: tileUrl } });
  });
  afterAll(() => t.close());

  it("adds the tile server's origin, and only it, to img-src and serves the template to the console", async () => {
    const res = await t.get(routes.health.path);
    const imgSrc = /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(imgSrc).toBe("'self' data: blob: https://tiles.example.org:8443");
    const settings = await t.get(routes.consoleSettings.path, await t.signIn('ed1'));
    expect(settings.statusCode).toBe(200);
    expect(ConsoleSettings.parse(settings.json())).toEqual({ mapTileUrl: tileUrl });
  });
});
