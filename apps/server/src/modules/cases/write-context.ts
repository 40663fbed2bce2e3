/**
 * What every case write reads from its request besides the body: the Idempotency-Key (required),
 * a hash of the request it names, and the client's Created-At time.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, serverMessages } from '@inbound/contract';
import { badRequest } from '../../errors.js';
import type { WriteContext } from './cases.service.js';

const KEY_HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/**
 * The request's identity for idempotency: method, URL (path and query: a tag id travels in the query)
 * and the validated body. The body is hashed after validation, so key order and defaults are the same
 * for a client's retry as for its first attempt.
 */
export function requestHash(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

export function writeContext(request: FastifyRequest): WriteContext {
  const raw = request.headers[KEY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') throw badRequest(serverMessages.idempotencyKeyMissing);
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest(serverMessages.idempotencyKeyInvalid);
  const createdAt = request.headers['created-at'];
  const clientTime = typeof createdAt === 'string' && createdAt.length <= 64 ? Date.parse(createdAt) : Number.NaN;
  return {
    idempotencyKey: key,
    requestHash: requestHash(request.method, request.url, request.body),
    clientCreatedAt: Number.isFinite(clientTime) ? new Date(clientTime).toISOString() : null,
  };
}
