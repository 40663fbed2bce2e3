/**
 * The Fastify instance every app starts from: logging (one line per request), body limit and JSON
 * parsing with the text rules, timeouts for slow clients, proxy trust, the router's options and the
 * error shape. app.ts builds the modules on it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.js';
import { errorHandler } from '../errors.js';
import { loggerOptions } from '../logger.js';
import { parseJsonBody, refuseUnsafeParameters } from './text-safety.js';

/** A JSON request body larger than this is refused with 413 before it is parsed. */
export const BODY_LIMIT_BYTES = 1_048_576;

export interface ServerOptions {
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** With WORKERS > 1: this worker's number, sent as `Inbound-Worker` so operators see who answered. */
  worker?: number;
}

export function createServer(
  config: Pick<Config, 'logLevel' | 'timeouts' | 'trustProxy'>,
  options: ServerOptions = {},
): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    genReqId: () => randomUUID(),
    // One line per request (on completion, below) instead of Fastify's two: logging was a tenth of a read.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients (issue 17 item 6): Node answers 408 and closes once a request takes longer.
    requestTimeout: config.timeouts.requestMs,
    http: {
      headersTimeout: Math.min(config.timeouts.headersMs, config.timeouts.requestMs),
      // Node checks the two timeouts on this interval (30 s by default): often enough to enforce them.
      connectionsCheckingInterval: Math.min(1_000, config.timeouts.headersMs),
    },
    // Fastify accepts a hop count at run time; its types list only boolean and addresses.
    trustProxy: config.trustProxy as boolean | string,
    // The spec's paths mix cases (/v4/emsAgencies) and clients add trailing slashes (/questions/).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    // Router errors (a bad URL, an absurdly long id) answered in our error shape, without echoing the URL.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).send({ message: 'The request URL is not valid.', code: 'bad_request' });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.decorateRequest('principal', null);
  // Clients send `Content-Type: application/json` on every call, including body-less POSTs such as
  // sign-out; an empty body is "no body", not an error. Bad JSON is still a 400 (see errors.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const worker = options.worker === undefined ? null : String(options.worker);
  app.addHook('preValidation', refuseUnsafeParameters);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (worker) reply.header('inbound-worker', worker);
  });
  // The completion line holds only the serialized id, method, path and status (logger.ts), nothing a redact
  // path names, so it skips redaction, which was half of the line's cost; the output is the same as
  // request.log's (reqId first). Everything else still logs through the redacting logger.
  const accessLog = app.log.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', async (request, reply) => {
    accessLog.info(
      { reqId: request.id, req: request, res: reply, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });
  return app;
}
