/**
 * Errors from the field: what the crew app and the hospital console report when something goes wrong
 * on a device — an uncaught error, a service-worker update that failed, a change the server refused from
 * the outbox. A report carries **ids and codes only**: every field is a short token without spaces, so
 * no sentence (an error message that quoted a patient's name, a free-text note) can travel in it. The
 * reports are built here by `clientErrorReport`, which keeps only what fits; the server's schema
 * refuses anything else.
 */
import { z } from 'zod';
import {
  REPORT_APP_VERSION,
  CLIENT_ERROR_KINDS,
  REPORT_ID,
  REPORT_ROUTE_PATTERN,
  REPORT_SOURCE_POSITION,
  REPORT_TOKEN,
} from './client-error-reporter.js';

const Token = z.string().regex(REPORT_TOKEN, 'a token of letters, digits and _ . : -');
const ReportId = z.string().regex(REPORT_ID, 'an id');

export const ClientErrorReport = z
  .object({
    app: z.enum(['crew', 'hospital']),
    appVersion: z.string().regex(REPORT_APP_VERSION, 'a version'),
    /** A random id the device keeps (localStorage), for the per-device rate limit; no user or device name. */
    deviceId: ReportId,
    kind: z.enum(CLIENT_ERROR_KINDS),
    /** The error's class (`TypeError`, `ChunkLoadError`), or the server's code for a refused change. */
    name: Token,
    /** An HTTP status or the server's error code. */
    code: Token.optional(),
    where: z.string().regex(REPORT_SOURCE_POSITION, 'file:line[:column]').optional(),
    route: z.string().regex(REPORT_ROUTE_PATTERN, 'a route pattern').optional(),
    /** The outbox item's idempotency key, its case, the server's request id. */
    ids: z
      .object({ item: ReportId.optional(), case: ReportId.optional(), request: ReportId.optional() })
      .strict()
      .optional(),
    at: z.iso.datetime(),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;
