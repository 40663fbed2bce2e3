/**
 * Binds a route of the contract table to a handler: the same zod schemas validate the request and
 * shape the response, and an authenticated route gets the principal before its body is even read.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ErrorBody, type RouteDef } from '@inbound/contract';
import type { Principal } from '../modules/auth/principal.js';
import { unauthorized } from '../errors.js';
import { createBodyCache } from './serialized-body.js';

type Input<T> = T extends z.ZodType ? z.output<T> : undefined;
// A route with `response: null` answers 204 and its handler returns nothing.
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- "returns nothing" is exactly void here
type Output<R extends RouteDef> = R['response'] extends z.ZodType ? z.input<R['response']> : void;

export interface RouteInput<R extends RouteDef> {
  params: Input<R['params']>;
  query: Input<R['query']>;
  body: Input<R['body']>;
  principal: R['auth'] extends true ? Principal : null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteContext {
  /** The token check, from the auth module. */
  authenticate: onRequestAsyncHookHandler;
}

export interface BindOptions {
  /** Success status; 200 by default, 204 when the route answers nothing. */
  status?: number;
  /** Per-route @fastify/rate-limit settings. */
  rateLimit?: {
    max: number;
    timeWindow: number;
    keyGenerator?: (request: FastifyRequest) => string;
    errorResponseBuilder?: () => Error;
  };
  bodyLimit?: number;
  /**
   * Validate and serialize each distinct answer once and reuse the text, with an ETag and 304 for
   * If-None-Match (http/serialized-body.ts). For large answers that rarely change (reference data), and
   * for small ones asked for far more often than they change (`{ maxEntries }`: distinct answers kept).
   */
  serializeOnce?: boolean | { maxEntries: number };
}

/** Revalidated on every use (no-cache) and kept out of shared caches (private): answers depend on who asks. */
const REVALIDATE = 'private, no-cache';
const JSON_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function bindRoute<R extends RouteDef>(
  app: FastifyInstance,
  ctx: RouteContext,
  def: R,
  handler: (input: RouteInput<R>) => Promise<Output<R>>,
  options: BindOptions = {},
): void {
  const status = options.status ?? (def.response ? 200 : 204);
  const schema: NonNullable<RouteShorthandOptions['schema']> = {
    summary: def.summary,
    response: {
      ...(def.response ? { [status]: def.response } : {}),
      '4xx': ErrorBody,
    },
  };
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body) schema.body = def.body;
  if (def.auth) schema.security = [{ jwt: [] }];
  const bodies =
    options.serializeOnce && def.response
      ? createBodyCache(
          def.response,
          typeof options.serializeOnce === 'object' ? options.serializeOnce.maxEntries : undefined,
        )
      : null;

  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: options.rateLimit ? { rateLimit: options.rateLimit } : {},
    onRequest: def.auth ? [ctx.authenticate] : [],
    handler: async (request, reply) => {
      if (def.auth && !request.principal) throw unauthorized();
      const result = await handler({
        params: request.params,
        query: request.query,
        body: request.body,
        principal: request.principal,
        request,
        reply,
      } as RouteInput<R>);
      reply.code(status);
      if (bodies) {
        const body = bodies.serialize(result);
        void reply.header('etag', body.etag).header('cache-control', REVALIDATE);
        if (body.matches(request.headers['if-none-match'])) return reply.code(304).send();
        void reply.type(JSON_TYPE).header('vary', 'accept-encoding');
        // Compressed once, kept with the body; the compression plugin leaves an encoded answer alone.
        const encoded = body.encodedFor(request.headers['accept-encoding']);
        if (encoded) return reply.header('content-encoding', encoded.encoding).send(encoded.data);
        // A string with a JSON content type is sent as it is: the route's serializer does not run again.
        return reply.send(body.json);
      }
      return def.response ? result : reply.send();
    },
  });
}
