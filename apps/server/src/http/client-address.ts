import type { FastifyRequest } from 'fastify';

/**
 * The client's address (through TRUST_PROXY's proxies). Fastify's `request.ip` is undefined once the
 * socket is gone — Node refuses a request such as `Transfer-Encoding: xchunked` and destroys it while
 * hooks still run — so every caller gets a string.
 */
export const clientAddress = (request: FastifyRequest): string => (request.ip as string | undefined) ?? 'unknown';
