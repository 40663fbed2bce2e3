/**
 * Log settings. Logs never carry passwords, tokens, cookies, bodies or query strings (a query can
 * carry a patient's or a crew member's name): the request serializer keeps method, path and id only,
 * and redact catches the rest should anyone log an object with such a field.
 */
import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'password',
  'currentPassword',
  'newPassword',
  'verifyPassword',
  'token',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.verifyPassword',
  '*.token',
  '*.authorization',
];

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    ...(stream ? { stream } : {}),
  };
}

/**
 * `logError(error, what)` for modules that report failures of background work (outbox relay, sweeps):
 * the error's message only — never the error object, whose fields may carry a query's parameters.
 */
export function errorLogger(log: { error(details: object, message: string): void }) {
  return (error: unknown, what: string): void =>
    log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, what);
}
