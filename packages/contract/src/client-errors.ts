/**
 * Errors from the field: what the crew app and the hospital console report when something goes wrong
 * on a device — an uncaught error, a service-worker update that failed, a change the server refused from
 * the outbox. A report carries **ids and codes only**: every field is a short token without spaces, so
 * no sentence (an error message that quoted a patient's name, a free-text note) can travel in it. The
 * reports are built here by `clientErrorReport`, which keeps only what fits; the server's schema
 * refuses anything else.
 */
import { z } from 'zod';

export const CLIENT_ERROR_KINDS = ['uncaught', 'sw_update_failed', 'outbox_refused'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** A name or code: letters, digits and `_ . : -`, no spaces. */
const Token = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'a token of letters, digits and _ . : -');
/** A source position `path/file.js:12:34`, path without origin or query. */
const SourcePosition = z.string().regex(/^[A-Za-z0-9_./-]{1,120}:\d{1,7}(:\d{1,7})?$/, 'file:line[:column]');
/** Route patterns of the apps (`/case`, `/hospital/cases/:id`): ids are replaced by `:id`. */
const RoutePattern = z.string().regex(/^\/[A-Za-z0-9_/:-]{0,99}$/, 'a route pattern');
const ReportId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an id');

export const ClientErrorReport = z
  .object({
    app: z.enum(['crew', 'hospital']),
    appVersion: z.string().regex(/^[0-9A-Za-z.+-]{1,32}$/, 'a version'),
    /** A random id the device keeps (localStorage), for the per-device rate limit; no user or device name. */
    deviceId: ReportId,
    kind: z.enum(CLIENT_ERROR_KINDS),
    /** The error's class (`TypeError`, `ChunkLoadError`), or the server's code for a refused change. */
    name: Token,
    /** An HTTP status or the server's error code. */
    code: Token.optional(),
    where: SourcePosition.optional(),
    route: RoutePattern.optional(),
    /** The outbox item's idempotency key, its case, the server's request id. */
    ids: z
      .object({ item: ReportId.optional(), case: ReportId.optional(), request: ReportId.optional() })
      .strict()
      .optional(),
    at: z.iso.datetime(),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;

/** Reports accepted per device per minute; more are answered 429 and counted, not logged. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 10;

const fits = (schema: z.ZodType, value: unknown): boolean => schema.safeParse(value).success;

/** The first frame of a stack that is one of the app's own files, as `path:line:col` (no origin, no query). */
export function sourcePositionOf(stack: string | undefined): string | undefined {
  for (const match of (stack ?? '').matchAll(
    /(?:https?:\/\/[^/\s)]+)?(\/[A-Za-z0-9_./-]+\.m?js)(?:\?[^:\s)]*)?:(\d+):(\d+)/g,
  )) {
    const position = `${match[1]}:${match[2]}:${match[3]}`;
    if (fits(SourcePosition, position)) return position;
  }
  return undefined;
}

/** Replaces the ids in a path (uuids, numbers, long tokens) by `:id`. */
export function routePatternOf(pathname: string): string | undefined {
  const pattern = pathname
    .split('/')
    .map((part) => (/\d/.test(part) || part.length > 24 ? ':id' : part))
    .join('/');
  return fits(RoutePattern, pattern) ? pattern : undefined;
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
  const name = error && fits(Token, error.name) ? error.name : input.error === undefined ? input.kind : 'Error';
  const code = input.code === undefined ? undefined : String(input.code);
  const ids = Object.fromEntries(Object.entries(input.ids ?? {}).filter(([, id]) => fits(ReportId, id)));
  const where = sourcePositionOf(error?.stack);
  const route = input.pathname === undefined ? undefined : routePatternOf(input.pathname);
  return {
    app: input.app,
    appVersion: fits(ClientErrorReport.shape.appVersion, input.appVersion) ? input.appVersion : '0',
    deviceId: input.deviceId,
    kind: input.kind,
    name,
    ...(code !== undefined && fits(Token, code) ? { code } : {}),
    ...(where ? { where } : {}),
    ...(route ? { route } : {}),
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
    at: (input.at ?? new Date()).toISOString(),
  };
}
