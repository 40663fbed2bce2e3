/**
 * One error type and one handler. Every error answer is `{ message, code }`: the crew app shows
 * `message` as-is (spec §8) and may map `code`, which never changes once published.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { serverMessages } from '@inbound/contract';

export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'case_closed'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'password_change_required'
  | 'mfa_required'
  | 'mfa_invalid'
  | 'mfa_enrolment_required'
  | 'internal';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra answer headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, 'bad_request', message);
export const unauthorized = (message: string = serverMessages.authRequired) =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message: string = serverMessages.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (what: string) => new AppError(404, 'not_found', serverMessages.notFound(what));
export const conflict = (message: string, code: ErrorCode = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (message: string = serverMessages.tooManyRequests, retryAfterSeconds?: number) =>
  new AppError(
    429,
    'too_many_requests',
    message,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );

interface ValidationIssue {
  instancePath: string;
  message?: string;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

/** "body.username: username is required" — the field first, so the message says what to fix. */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const prefix = CONTEXT_NAMES[context ?? ''] ?? context ?? 'request';
  return issues
    .slice(0, 5)
    .map((issue) => {
      const segments = issue.instancePath.split('/').filter(Boolean);
      const where = [prefix, ...segments].join('.');
      const field = segments.at(-1);
      const raw = issue.message ?? 'is invalid';
      // zod says "expected string, received undefined" for an absent field; people say "is required".
      const text = field && /received undefined/.test(raw) ? `${field} is required` : raw;
      return `${where}: ${text}`;
    })
    .join('; ');
}

/** Fastify's own client errors (body too large, bad JSON, wrong media type) in our words. */
function fromFastifyError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'The request body must be JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('The request body is empty but declared as JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('The request body is not valid JSON.');
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return badRequest('The request body is not valid JSON.');
  }
  if (error.statusCode === 429) return tooManyRequests(error.message || undefined);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(error.statusCode, 'bad_request', error.message || 'Bad request.');
  }
  return null;
}

export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply.code(error.status).headers(error.headers).send({ message: error.message, code: error.code });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply
      .code(400)
      .send({ message: describeValidation(error.validationContext, error.validation), code: 'validation' });
  }
  const known = fromFastifyError(error);
  if (known) return reply.code(known.status).send({ message: known.message, code: known.code });

  // Logged once, here, with the request id the logger already carries; the client learns nothing inside.
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: 'Internal server error.', code: 'internal' });
}
