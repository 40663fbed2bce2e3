/**
 * What the hospital's monitoring talks to: `/metrics` (Prometheus text) and `/ready` (may this process
 * take traffic). `/health` (liveness: the process answers) stays in the health module.
 *
 * `/metrics` names routes, volumes and timings — no patient data, but a map of the service — so it is
 * answered with `Authorization: Bearer <METRICS_TOKEN>` when that is set, and otherwise only to a
 * direct loopback connection (a request forwarded by a reverse proxy on the same host carries
 * X-Forwarded-For / Forwarded and is refused).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, HTTPMethods, onResponseHookHandler } from 'fastify';
import type { Metrics } from './metrics.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves when fine; throws (or takes longer than READY_TIMEOUT_MS) when not. */
  check(): Promise<void>;
}

export const READY_TIMEOUT_MS = 2_000;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function mayScrape(request: FastifyRequest, token: string | null): boolean {
  if (token) {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice(7), token);
  }
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '');
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function opsRoutes(
  app: FastifyInstance,
  /** `metrics` null (METRICS_ENABLED=false): no /metrics and no per-request measuring; /ready stays. */
  options: { metrics: Metrics | null; metricsToken: string | null; readiness: ReadinessCheck[] },
): void {
  const { metrics, metricsToken, readiness } = options;
  if (metrics) serveMetrics(app, metrics, metricsToken);

  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const results = await Promise.all(
      readiness.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), READY_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          // The reason (an address, a driver message) goes to the log, not to whoever asks.
          app.log.warn({ check: name, reason: (error as Error).message }, 'readiness check failed');
          return [name, 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });
}

function serveMetrics(app: FastifyInstance, metrics: Metrics, metricsToken: string | null): void {
  // Per route, by its pattern (`/v4/twiageCases/:id`), never the URL: ids stay out of the labels and the
  // number of series bounded. The hook is bound to each route as it is added (route and method known
  // then), so a request costs a few additions (http-metrics.ts).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const recorders = new Map(methods.map((method) => [method, metrics.httpRoute(route.url, method)]));
    const record: onResponseHookHandler = (request, reply, done) => {
      recorders.get(request.method as HTTPMethods)?.(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = route.onResponse ? [record, ...[route.onResponse].flat()] : [record];
  });
  // Requests no route matched (404s, probes, the apps' pages for deep links) under one fixed route label.
  const unmatched = new Map<string, (status: number, seconds: number) => void>();
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      // Methods are few and known to Node's parser; anything else is counted as OTHER.
      const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
      let record = unmatched.get(method);
      if (!record) unmatched.set(method, (record = metrics.httpUnmatched(method)));
      record(reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, metricsToken)) {
      return reply.code(metricsToken ? 401 : 403).send({
        message: metricsToken ? 'A valid metrics token is required.' : 'Metrics are served to loopback only.',
      });
    }
    let text: string;
    try {
      text = await metrics.scrape();
    } catch (error) {
      // With WORKERS=N: the primary or a worker did not answer in time; the scraper tries again.
      app.log.warn({ reason: (error as Error).message }, 'metrics not collected');
      return reply.code(503).header('retry-after', '5').send({ message: 'Metrics could not be collected; try again.' });
    }
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
