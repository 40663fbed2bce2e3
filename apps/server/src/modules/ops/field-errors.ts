/**
 * Errors from the field (contract: client-errors.ts): each report is checked (ids and codes only — the
 * schema refuses anything else), limited per device, counted in the metrics, written to the log with
 * the app's version and, when ERROR_REPORT_DSN names a Sentry-compatible project, forwarded to it as a
 * Sentry envelope (format in docs/operations.md). The app always reports to Inbound, never to a third
 * party directly: the scrubbing, the limit and the choice of where reports go stay on our server.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CLIENT_ERROR_REPORTS_PER_MINUTE, routes, type ClientErrorReport } from '@inbound/contract';
import { tooManyRequests } from '../../errors.js';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { Metrics } from './metrics.js';

const WINDOW_MS = 60_000;
/** Devices remembered for the limit; past this the oldest window is forgotten (memory stays bounded). */
const MAX_DEVICES = 10_000;
/** Reports per client address per minute, whatever device ids it claims (ids are the client's choice). */
const PER_ADDRESS_PER_MINUTE = 60;
const FORWARD_TIMEOUT_MS = 5_000;

export interface SentryDsn {
  envelopeUrl: string;
  publicKey: string;
  dsn: string;
}

/** `https://<key>@host[:port][/prefix]/<project>` → where envelopes go. Null when it is not a DSN. */
export function parseSentryDsn(dsn: string): SentryDsn | null {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const project = parts.pop();
  if (!url.username || !project || !/^\d+$/.test(project) || !['http:', 'https:'].includes(url.protocol)) return null;
  const prefix = parts.length ? `/${parts.join('/')}` : '';
  return {
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${project}/envelope/`,
    publicKey: url.username,
    dsn,
  };
}

/** One report as a Sentry envelope: header line, item header line, event line. */
export function sentryEnvelope(report: ClientErrorReport, dsn: SentryDsn, environment: string): string {
  const eventId = randomUUID().replaceAll('-', '');
  const event = {
    event_id: eventId,
    timestamp: report.at,
    platform: 'javascript',
    level: 'error',
    logger: report.kind,
    release: `inbound-${report.app}@${report.appVersion}`,
    environment,
    tags: {
      app: report.app,
      kind: report.kind,
      ...(report.code ? { code: report.code } : {}),
      ...(report.route ? { route: report.route } : {}),
    },
    exception: {
      values: [
        {
          type: report.name,
          value: report.code ?? report.kind,
          ...(report.where
            ? {
                stacktrace: {
                  frames: [
                    {
                      filename: report.where.replace(/:\d+(:\d+)?$/, ''),
                      lineno: Number(/:(\d+)(?::\d+)?$/.exec(report.where)?.[1] ?? 0),
                    },
                  ],
                },
              }
            : {}),
        },
      ],
    },
    ...(report.ids ? { extra: { ids: report.ids } } : {}),
    // The device's random id groups its reports without naming a person or a device.
    user: { id: report.deviceId },
  };
  const body = JSON.stringify(event);
  return [
    JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString(), dsn: dsn.dsn }),
    JSON.stringify({ type: 'event', length: Buffer.byteLength(body) }),
    body,
  ].join('\n');
}

export function fieldErrorRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  deps: { metrics: Metrics; dsn: string | null; environment: string; now?: () => number },
): void {
  const now = deps.now ?? Date.now;
  const sentry = deps.dsn ? parseSentryDsn(deps.dsn) : null;
  const windows = new Map<string, { start: number; count: number }>();

  function allowed(deviceId: string): boolean {
    const time = now();
    const current = windows.get(deviceId);
    if (!current || time - current.start >= WINDOW_MS) {
      windows.delete(deviceId);
      if (windows.size >= MAX_DEVICES) windows.delete(windows.keys().next().value as string);
      windows.set(deviceId, { start: time, count: 1 });
      return true;
    }
    current.count += 1;
    return current.count <= CLIENT_ERROR_REPORTS_PER_MINUTE;
  }

  async function forward(report: ClientErrorReport, dsn: SentryDsn): Promise<void> {
    const response = await fetch(dsn.envelopeUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-sentry-envelope',
        'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${dsn.publicKey}, sentry_client=inbound-server/1`,
      },
      body: sentryEnvelope(report, dsn, deps.environment),
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the error service answered ${response.status}`);
  }

  bindRoute(
    app,
    ctx,
    routes.reportClientError,
    ({ body, request }) => {
      if (!allowed(body.deviceId)) {
        deps.metrics.fieldErrorDropped();
        throw tooManyRequests();
      }
      deps.metrics.fieldError(body.app, body.kind);
      // Every field is an id or a code (the schema holds them to that), so the report is logged whole.
      request.log.warn({ report: body }, 'client error report');
      if (sentry) {
        forward(body, sentry).catch((error: unknown) =>
          request.log.warn({ reason: (error as Error).message }, 'client error report not forwarded'),
        );
      }
      return Promise.resolve();
    },
    { rateLimit: { max: PER_ADDRESS_PER_MINUTE, timeWindow: WINDOW_MS }, bodyLimit: 4_096 },
  );
}
