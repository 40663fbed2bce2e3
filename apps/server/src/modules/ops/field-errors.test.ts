/**
 * POST /v4/client-errors: accepted (ids and codes only), logged with the app version, counted, limited
 * per device, and forwarded as a Sentry envelope when ERROR_REPORT_DSN is set.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ERROR_REPORTS_PER_MINUTE, routes } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { parseSentryDsn } from './field-errors.js';

const report = (deviceId: string, extra: Record<string, unknown> = {}) => ({
  app: 'crew',
  appVersion: '1.0.234',
  deviceId,
  kind: 'outbox_refused',
  name: 'ApiError',
  code: '409',
  route: '/case',
  ids: { item: '0b8e2c1a-4b1f-4c39-9d7e-1f2a3b4c5d6e', case: 'c-1' },
  at: '2026-11-25T10:00:00.000Z',
  ...extra,
});

describe('field error reports', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  const received: { headers: IncomingHttpHeaders; url: string; body: string }[] = [];
  const sentry = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, url: request.url ?? '', body });
      response.writeHead(200).end('{}');
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => sentry.listen(0, '127.0.0.1', resolve));
    const port = (sentry.address() as AddressInfo).port;
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await createTestApp({
      seed: false,
      logStream,
      env: {
        LOG_LEVEL: 'info',
        ERROR_REPORT_DSN: `http://publickey@127.0.0.1:${port}/42`,
        ERROR_REPORT_ENVIRONMENT: 'test',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    sentry.close();
  });

  const post = (body: unknown) =>
    t.app.inject({ method: 'POST', url: routes.reportClientError.path, payload: body as object });

  it('accepts a report without a token, logs it with the app version, counts it, and forwards a Sentry envelope', async () => {
    const res = await post(report('device-a'));
    expect(res.statusCode).toBe(204);
    const logged = lines.find((line) => line.msg === 'client error report');
    expect(logged?.report).toMatchObject({ app: 'crew', appVersion: '1.0.234', kind: 'outbox_refused', code: '409' });
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/inbound_field_errors_total\{[^}]*app="crew"[^}]*kind="outbox_refused"[^}]*\} 1/);

    await expect.poll(() => received.length).toBe(1);
    const envelope = received[0]!;
    expect(envelope.url).toBe('/api/42/envelope/');
    expect(envelope.headers['content-type']).toBe('application/x-sentry-envelope');
    expect(envelope.headers['x-sentry-auth']).toContain('sentry_key=publickey');
    const [header, item, event] = envelope.body.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(header).toMatchObject({ dsn: expect.stringContaining('/42') as unknown });
    expect(item).toMatchObject({ type: 'event' });
    expect(event).toMatchObject({
      level: 'error',
      release: 'inbound-crew@1.0.234',
      environment: 'test',
      tags: { app: 'crew', kind: 'outbox_refused', code: '409', route: '/case' },
      exception: { values: [{ type: 'ApiError', value: '409' }] },
      extra: { ids: { item: '0b8e2c1a-4b1f-4c39-9d7e-1f2a3b4c5d6e', case: 'c-1' } },
    });
  });

  it('refuses free text (a message, a name with spaces) with 400 and logs nothing of it', async () => {
    expectClientError(await post(report('device-b', { message: 'John Smith, 72, stroke' })), 400);
    expectClientError(await post(report('device-b', { name: 'John Smith' })), 400);
    expect(JSON.stringify(lines)).not.toContain('John Smith');
  });

  it(`limits each device to ${CLIENT_ERROR_REPORTS_PER_MINUTE} reports a minute and counts the rest as dropped`, async () => {
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_MINUTE; i++)
      expect((await post(report('device-c'))).statusCode).toBe(204);
    expectClientError(await post(report('device-c')), 429);
    expect((await post(report('device-d'))).statusCode).toBe(204);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/inbound_field_errors_dropped_total\{[^}]*\} 1/);
  });

  it('reads Sentry DSNs, with and without a path prefix', () => {
    expect(parseSentryDsn('https://abc@o1.ingest.example.io/123')?.envelopeUrl).toBe(
      'https://o1.ingest.example.io/api/123/envelope/',
    );
    expect(parseSentryDsn('https://abc@errors.example.org/glitchtip/7')?.envelopeUrl).toBe(
      'https://errors.example.org/glitchtip/api/7/envelope/',
    );
    expect(parseSentryDsn('https://errors.example.org/7')).toBeNull();
  });
});
