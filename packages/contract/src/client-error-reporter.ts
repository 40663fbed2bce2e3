/**
 * The apps' side of field error reports (the schema is in client-errors.ts): building a report that
 * keeps only ids and codes, and the reporter with its limits. No zod here: the crew app's first screen
 * loads this, and its size budget has no room for the schema library.
 */
import type { ClientErrorReport } from './client-errors.js';

export const CLIENT_ERROR_KINDS = ['uncaught', 'sw_update_failed', 'outbox_refused'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

// Plain patterns, shared by the schema and the apps' reporter (which must not pull zod into the crew
// app's first screen).
/** A name or code: letters, digits and `_ . : -`, no spaces. */
export const REPORT_TOKEN = /^[A-Za-z0-9_.:-]{1,64}$/;
/** A source position `path/file.js:12:34`, path without origin or query. */
export const REPORT_SOURCE_POSITION = /^[A-Za-z0-9_./-]{1,120}:\d{1,7}(:\d{1,7})?$/;
/** Route patterns of the apps (`/case`, `/hospital/cases/:id`): ids are replaced by `:id`. */
export const REPORT_ROUTE_PATTERN = /^\/[A-Za-z0-9_/:-]{0,99}$/;
export const REPORT_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const REPORT_APP_VERSION = /^[0-9A-Za-z.+-]{1,32}$/;

/** Reports accepted per device per minute; more are answered 429 and counted, not logged. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 10;

const fits = (pattern: RegExp, value: unknown): boolean => typeof value === 'string' && pattern.test(value);

/** The first frame of a stack that is one of the app's own files, as `path:line:col` (no origin, no query). */
export function sourcePositionOf(stack: string | undefined): string | undefined {
  for (const match of (stack ?? '').matchAll(
    /(?:https?:\/\/[^/\s)]+)?(\/[A-Za-z0-9_./-]+\.m?js)(?:\?[^:\s)]*)?:(\d+):(\d+)/g,
  )) {
    const position = `${match[1]}:${match[2]}:${match[3]}`;
    if (fits(REPORT_SOURCE_POSITION, position)) return position;
  }
  return undefined;
}

/** Replaces the ids in a path (uuids, numbers, long tokens) by `:id`. */
export function routePatternOf(pathname: string): string | undefined {
  const pattern = pathname
    .split('/')
    .map((part) => (/\d/.test(part) || part.length > 24 ? ':id' : part))
    .join('/');
  return fits(REPORT_ROUTE_PATTERN, pattern) ? pattern : undefined;
}

export interface ClientErrorInput {
  app: ClientErrorReport['app'];
  appVersion: string;
  deviceId: string;
  kind: ClientErrorKind;
  error?: unknown;
  code?: string | number;
  pathname?: string;
  ids?: { item?: string; case?: string; request?: string };
  at?: Date;
}

/** Builds a report from what was caught, keeping only the parts that are ids and codes. */
export function clientErrorReport(input: ClientErrorInput): ClientErrorReport {
  const error = input.error instanceof Error ? input.error : undefined;
  const name = error && fits(REPORT_TOKEN, error.name) ? error.name : input.error === undefined ? input.kind : 'Error';
  const code = input.code === undefined ? undefined : String(input.code);
  const ids = Object.fromEntries(Object.entries(input.ids ?? {}).filter(([, id]) => fits(REPORT_ID, id)));
  const where = sourcePositionOf(error?.stack);
  const route = input.pathname === undefined ? undefined : routePatternOf(input.pathname);
  return {
    app: input.app,
    appVersion: fits(REPORT_APP_VERSION, input.appVersion) ? input.appVersion : '0',
    deviceId: input.deviceId,
    kind: input.kind,
    name,
    ...(code !== undefined && fits(REPORT_TOKEN, code) ? { code } : {}),
    ...(where ? { where } : {}),
    ...(route ? { route } : {}),
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
    at: (input.at ?? new Date()).toISOString(),
  };
}

export interface FieldErrorReporterDeps {
  app: ClientErrorReport['app'];
  appVersion: string;
  /** Where the device's random id is kept (localStorage in the apps). */
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  /** Sends the report; failures are swallowed (a report must never cause another error). */
  send(path: string, report: ClientErrorReport): Promise<unknown>;
  pathname(): string;
  now?: () => number;
}

export type FieldErrorReporter = (
  kind: ClientErrorKind,
  details?: { error?: unknown; code?: string | number; ids?: ClientErrorInput['ids'] },
) => void;

const DEVICE_ID_KEY = 'inbound.error-report-device';

/**
 * The apps' reporter: a random device id kept on the device, the same error reported once a minute at
 * most, and no more than the server's per-device limit — a loop that throws does not flood anyone.
 */
export function createFieldErrorReporter(deps: FieldErrorReporterDeps): FieldErrorReporter {
  const now = deps.now ?? Date.now;
  let deviceId = deps.storage?.getItem(DEVICE_ID_KEY) ?? null;
  if (!deviceId || !fits(REPORT_ID, deviceId)) {
    deviceId = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
    try {
      deps.storage?.setItem(DEVICE_ID_KEY, deviceId);
    } catch {
      // storage full or refused: a new id per page load is fine
    }
  }
  const sentAt = new Map<string, number>();
  let windowStart = 0;
  let inWindow = 0;
  return (kind, details = {}) => {
    try {
      const report = clientErrorReport({
        app: deps.app,
        appVersion: deps.appVersion,
        deviceId: deviceId,
        kind,
        ...details,
        pathname: deps.pathname(),
        at: new Date(now()),
      });
      const time = now();
      const fingerprint = `${report.kind}|${report.name}|${report.code ?? ''}|${report.where ?? ''}`;
      if (time - (sentAt.get(fingerprint) ?? -Infinity) < 60_000) return;
      if (time - windowStart >= 60_000) {
        windowStart = time;
        inWindow = 0;
      }
      if (inWindow >= CLIENT_ERROR_REPORTS_PER_MINUTE) return;
      inWindow += 1;
      sentAt.set(fingerprint, time);
      deps.send('/v4/client-errors', report).catch(() => undefined);
    } catch {
      // never throw from the error reporter
    }
  };
}
