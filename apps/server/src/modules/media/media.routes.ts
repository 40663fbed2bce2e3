/**
 * POST /media/twiage-cases/{id}/uploads (multipart: `type`, then `data`), the case's upload list, and
 * the files themselves with range requests (a video seeks without downloading it whole).
 */
import { rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Id,
  MEDIA_CALL_ID_FIELD,
  MEDIA_PARTIAL_FIELD,
  MEDIA_CHAT_LENGTH_FIELD,
  MEDIA_MAX_BYTES,
  MediaChatLength,
  MediaFileParams,
  mediaMessages,
  MediaType,
  routes,
  type MediaUploadResponse,
} from '@inbound/contract';
import { AppError, badRequest, unauthorized } from '../../errors.js';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { Principal } from '../auth/principal.js';
import { requestHash, writeContext } from '../cases/write-context.js';
import { parseRange } from './byte-range.js';
import type { MediaStore } from './media-store.js';
import { payloadTooLarge, type MediaService } from './media.service.js';
import { receiveToFile, TooLarge, type HashedFile } from './received-file.js';

/** The largest file any type may have, plus room for the multipart framing and fields. */
const MULTIPART_MAX_BYTES = Math.max(...Object.values(MEDIA_MAX_BYTES)) + 64 * 1_024;

/** The upload's request identity: the same key with another file or type is refused (409), not replayed. */
export const uploadRequestHash = (
  caseId: string,
  type: MediaType,
  sha256: string,
  chatLength?: number,
  callId?: string,
  partial?: true,
): string =>
  requestHash('POST', `/media/twiage-cases/${caseId}/uploads`, {
    type,
    sha256,
    ...(chatLength === undefined ? {} : { chatLength }),
    ...(callId === undefined ? {} : { callId }),
    ...(partial === undefined ? {} : { partial }),
  });

/** The optional `chatLength` (multipart field or tus metadata): seconds, for a voice memo posted in the chat. */
export function readChatLength(value: string | undefined, where: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = MediaChatLength.safeParse(value);
  if (!parsed.success) throw badRequest(`${where}: ${parsed.error.issues[0]?.message ?? 'chatLength is invalid'}`);
  return parsed.data;
}

async function receiveMultipart(
  request: FastifyRequest,
  incomingDir: string,
  /** Runs once the fields before the file are read, before a byte of the file is: the last refusal point. */
  beforeFile: (type: MediaType, callId: string | undefined) => Promise<void>,
): Promise<{
  type: MediaType;
  file: HashedFile;
  chatLength: number | undefined;
  callId: string | undefined;
  partial: true | undefined;
}> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', mediaMessages.notMultipart);
  let type: MediaType | null = null;
  let chatLength: number | undefined;
  let callId: string | undefined;
  let partial: true | undefined;
  let file: HashedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === MEDIA_CHAT_LENGTH_FIELD) {
          chatLength = readChatLength(String(part.value), 'body.chatLength');
          continue;
        }
        if (part.fieldname === MEDIA_CALL_ID_FIELD) {
          if (file !== null) throw badRequest(mediaMessages.callIdMissing);
          const parsed = Id.safeParse(part.value);
          if (!parsed.success) throw badRequest(`body.callId: ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
          callId = parsed.data;
          continue;
        }
        if (part.fieldname === MEDIA_PARTIAL_FIELD) {
          if (part.value !== 'true') throw badRequest(mediaMessages.partialValue);
          partial = true;
          continue;
        }
        if (part.fieldname !== 'type') continue;
        const parsed = MediaType.safeParse(part.value);
        if (!parsed.success) throw badRequest(`body.type: ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
        type = parsed.data;
      } else if (part.fieldname === 'data' && file === null) {
        if (type === null) throw badRequest(mediaMessages.missingType);
        await beforeFile(type, callId);
        try {
          file = await receiveToFile(part.file, incomingDir, MEDIA_MAX_BYTES[type]);
        } catch (error) {
          if (error instanceof TooLarge || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw payloadTooLarge(type);
          }
          throw error;
        }
      } else {
        part.file.resume(); // another file field: not ours, drained so the parser moves on
      }
    }
  } catch (error) {
    if (file) await rm((file as HashedFile).path, { force: true });
    throw error;
  }
  if (type === null) throw badRequest(mediaMessages.missingType);
  if (file === null) throw badRequest(mediaMessages.missingFile);
  if (chatLength !== undefined && type !== 'voicememo') {
    await rm(file.path, { force: true });
    throw badRequest(mediaMessages.chatLengthNotVoiceMemo);
  }
  if (partial !== undefined && type !== 'callrecording') {
    await rm(file.path, { force: true });
    throw badRequest(mediaMessages.partialNotRecording);
  }
  return { type, file, chatLength, callId, partial };
}

function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  store: MediaStore,
  file: { key: string; contentType: string; size: number },
  fileName: string,
) {
  const range = parseRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${file.size}`)
      .send({ message: 'The requested range is outside the file.', code: 'bad_request' });
  }
  void reply
    .header('content-type', file.contentType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private')
    .header('content-disposition', `inline; filename="${fileName}"`);
  if (range === null) {
    void reply.header('content-length', file.size);
    return reply.code(200).send(await store.read(file.key));
  }
  void reply
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1);
  return reply.code(206).send(await store.read(file.key, range));
}

export async function mediaRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  media: MediaService,
  options: { store: MediaStore; incomingDir: string },
): Promise<void> {
  // Our own limit per type applies while the file streams in (receiveToFile); these only bound the rest.
  await app.register(multipart, {
    limits: { fileSize: Math.max(...Object.values(MEDIA_MAX_BYTES)), fields: 10, fieldSize: 1_024, parts: 12 },
  });
  bindRoute(
    app,
    ctx,
    routes.uploadMedia,
    async ({ principal, params, request, reply }): Promise<MediaUploadResponse> => {
      try {
        // A declared size no upload may have is refused before a byte of it is read.
        if (Number(request.headers['content-length']) > MULTIPART_MAX_BYTES) {
          throw new AppError(413, 'payload_too_large', 'The upload is larger than any media file may be.');
        }
        const base = writeContext(request);
        // Refused before a byte of the file is read: an unknown case, another crew's, a closed one.
        const side = await media.checkCanUpload(principal, params.id);
        const { type, file, chatLength, callId, partial } = await receiveMultipart(
          request,
          options.incomingDir,
          (t, call) => media.checkKind(principal, params.id, side, t, call),
        );
        const hash = uploadRequestHash(params.id, type, file.sha256, chatLength, callId, partial);
        const result = await media.accept(principal, { ...base, requestHash: hash }, params.id, type, file, {
          ...(chatLength === undefined ? {} : { chatLength }),
          ...(callId === undefined ? {} : { callId }),
          ...(partial === undefined ? {} : { partial }),
        });
        if (result.replayed) void reply.header('idempotent-replayed', 'true');
        return result.body;
      } catch (error) {
        // Refused with part of the body still on the wire: close the connection after the answer
        // rather than read megabytes nobody wants; the client gets the 4xx at once either way.
        if (!request.raw.complete) void reply.header('connection', 'close');
        throw error;
      }
    },
    { status: 201 },
  );

  bindRoute(app, ctx, routes.listMedia, ({ principal, params }) => media.list(principal, params.id));
  bindRoute(app, ctx, routes.mediaAccess, ({ principal, params }) =>
    media.access(principal, params.id, params.uploadId),
  );

  const accessOf = (request: FastifyRequest): string | null => {
    const access = (request.query as { access?: unknown } | undefined)?.access;
    return typeof access === 'string' ? access : null;
  };

  app.route({
    method: 'GET',
    url: '/media/twiage-cases/:id/uploads/:uploadId/:fileName',
    schema: { hide: true },
    // With a link from `mediaAccess` (`?access=`) the link is the authorisation; otherwise the token.
    onRequest: async function (request, reply) {
      if (accessOf(request) === null) await ctx.authenticate.call(this, request, reply);
    },
    handler: async (request, reply) => {
      const parsed = MediaFileParams.safeParse(request.params);
      if (!parsed.success) throw badRequest('The media file address is not valid.');
      const { id, uploadId, fileName } = parsed.data;
      const access = accessOf(request);
      const file =
        access === null
          ? await media.file(requirePrincipal(request), id, uploadId, fileName)
          : await media.fileByLink(id, uploadId, fileName, access);
      return sendFile(request, reply, options.store, file, fileName);
    },
  });
}
