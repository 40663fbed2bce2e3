/**
 * The console's protocol library: the list, an upload (the file's bytes as the body, up to
 * PROTOCOL_UPLOAD_MAX_BYTES; a larger declared length is refused before a byte is read), and an
 * upload's progress. Organisation admins and the agency's own admins only.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PROTOCOL_UPLOAD_MAX_BYTES, ProtocolImport, ProtocolUploadQuery, routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { unauthorized } from '../../errors.js';
import { uploadTooLarge, type ProtocolImports } from './imports.js';

/** Uploads are rare (an admin updating the library): a few a minute per address is plenty. */
const UPLOADS_PER_MINUTE = 20;

export function protocolImportsRoutes(app: FastifyInstance, ctx: RouteContext, imports: ProtocolImports): void {
  bindRoute(app, ctx, routes.protocolLibrary, ({ principal, query }) => imports.list(principal, query.agencyId));
  bindRoute(app, ctx, routes.protocolImport, ({ principal, params }) => imports.get(principal, params.id));

  // Its own scope: the file's bytes are taken as they are, whatever the type (checked against the name).
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROTOCOL_UPLOAD_MAX_BYTES }, (_req, body, next) =>
      next(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().route({
      method: 'POST',
      url: routes.protocolUpload.path,
      schema: { summary: routes.protocolUpload.summary, querystring: ProtocolUploadQuery, security: [{ jwt: [] }] },
      bodyLimit: PROTOCOL_UPLOAD_MAX_BYTES,
      config: { rateLimit: { max: UPLOADS_PER_MINUTE, timeWindow: 60_000 } },
      onRequest: [
        ctx.authenticate,
        async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > PROTOCOL_UPLOAD_MAX_BYTES) throw uploadTooLarge();
        },
      ],
      handler: async (request, reply) => {
        if (!request.principal) throw unauthorized();
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const job = await imports.upload(
          request.principal,
          request.query,
          request.headers['content-type'] ?? '',
          bytes,
        );
        return reply.code(202).send(ProtocolImport.parse(job));
      },
    });
    done();
  });
}
