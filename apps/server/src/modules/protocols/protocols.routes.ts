/**
 * POST /questions/ (§7): with header `streaming: true` the answer streams as plain text, then '+++',
 * then the JSON of QuestionResult; without it, the JSON alone. POST /feedback/, the admin's review list,
 * and the cited documents behind signed links (a browser opens them in a new tab, without our header).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PROTOCOL_STREAM_SEPARATOR,
  ProtocolDocumentParams,
  ProtocolDocumentQuery,
  QuestionBody,
  QuestionResult,
  routes,
} from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { unauthorized } from '../../errors.js';
import type { ProtocolsService } from './protocols.service.js';

/** Questions cost retrieval (and a model call when configured): bounded per client address. */
const QUESTIONS_PER_MINUTE = 120;
/** Streamed in pieces of this many characters, so the crew sees the answer begin at once. */
const STREAM_PIECE = 64;

export function protocolsRoutes(app: FastifyInstance, ctx: RouteContext, protocols: ProtocolsService): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: routes.question.path,
    schema: {
      summary: routes.question.summary,
      body: QuestionBody,
      security: [{ jwt: [] }],
    },
    config: { rateLimit: { max: QUESTIONS_PER_MINUTE, timeWindow: 60_000 } },
    onRequest: [ctx.authenticate],
    handler: async (request, reply) => {
      if (!request.principal) throw unauthorized();
      const { result, text } = await protocols.ask(request.principal, request.body);
      if (request.headers.streaming !== 'true') return QuestionResult.parse(result);
      const pieces = function* () {
        for (let at = 0; at < text.length; at += STREAM_PIECE) yield text.slice(at, at + STREAM_PIECE);
        yield `${PROTOCOL_STREAM_SEPARATOR}${JSON.stringify(QuestionResult.parse(result))}`;
      };
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(pieces()));
    },
  });

  bindRoute(app, ctx, routes.protocolFeedback, ({ principal, body }) => protocols.feedback(principal, body), {
    status: 201,
  });
  bindRoute(app, ctx, routes.protocolReview, ({ principal, query }) => protocols.review(principal, query.agencyId));

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'GET',
    url: '/v4/protocols/documents/:versionId/file',
    schema: {
      summary: 'A cited protocol document (signed link from an answer)',
      params: ProtocolDocumentParams,
      querystring: ProtocolDocumentQuery,
    },
    handler: async (request, reply) => {
      const file = await protocols.openDocument(request.params.versionId, request.query);
      // Only PDFs render as themselves; Markdown and HTML are shown as text, never run on our origin.
      if (file.contentType !== 'application/pdf') {
        void reply.type('text/plain; charset=utf-8').header('content-security-policy', "sandbox; default-src 'none'");
      } else void reply.type('application/pdf');
      return reply
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', `inline; filename="${file.name.replace(/[^\w.-]+/g, '_')}"`)
        .send(file.bytes);
    },
  });
}
