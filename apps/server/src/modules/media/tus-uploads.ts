/**
 * Resumable uploads (tus 1.0, `MEDIA_TUS_PATH`) for files a cellular link may not carry in one go: the
 * crew app creates an upload with its case, type and Idempotency-Key in `Upload-Metadata`, sends
 * PATCHes, and after a break asks (HEAD) for the offset and resumes from there. The last PATCH runs
 * the same path as a multipart upload — sniff, store, case event — and answers its JSON.
 *
 * Mounted inside Fastify: our token check runs first, then the raw request goes to the tus server.
 * Who: the creator must be allowed to change the case (checked at creation, with the type's size
 * limit); every later request must come from the same user, else the upload does not exist for them.
 * Partial uploads wait in `dir`; those untouched for a day are deleted at start.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { Locker } from '@tus/utils';
import { Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_KEY_PATTERN,
  MEDIA_MAX_BYTES,
  MEDIA_TUS_METADATA,
  MEDIA_TUS_PATH,
  mediaMessages,
  MediaType,
  serverMessages,
} from '@inbound/contract';
import { AppError, badRequest, notFound, unauthorized } from '../../errors.js';
import type { RouteContext } from '../../http/bind-route.js';
import type { Principal } from '../auth/principal.js';
import { payloadTooLarge, type MediaService } from './media.service.js';
import { readChatLength, uploadRequestHash } from './media.routes.js';
import { describeFile } from './received-file.js';

const EXPIRY_MS = 24 * 3_600_000;
const USER_KEY = 'userId';
const CREATED_AT_KEY = 'createdAt';

/** What the tus server sends for a refusal: our `{ message, code }` body with its status. */
class TusRefusal {
  readonly status_code: number;
  readonly body: string;
  constructor(error: AppError) {
    this.status_code = error.status;
    this.body = JSON.stringify({ message: error.message, code: error.code });
  }
}

/** tus's answers that mean "ask for the offset and resume", not "refused". */
const TUS_RESUME_STATUSES = new Set([409, 423, 460]);

const refusal = (error: unknown): unknown => (error instanceof AppError ? new TusRefusal(error) : error);

interface UploadMeta {
  caseId: string;
  type: MediaType;
  idempotencyKey: string;
  chatLength: number | undefined;
}

function readMeta(metadata: Upload['metadata']): UploadMeta {
  const meta = metadata ?? {};
  const caseId = meta[MEDIA_TUS_METADATA.caseId];
  const key = meta[MEDIA_TUS_METADATA.idempotencyKey];
  const type = MediaType.safeParse(meta[MEDIA_TUS_METADATA.type]);
  if (!caseId || caseId.length > 64) throw badRequest('Upload-Metadata: caseId is required.');
  if (!type.success) throw badRequest(`Upload-Metadata: ${type.error.issues[0]?.message ?? 'type is invalid'}`);
  if (!key) throw badRequest(`Upload-Metadata: ${serverMessages.idempotencyKeyMissing}`);
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest(`Upload-Metadata: ${serverMessages.idempotencyKeyInvalid}`);
  const chatLength = readChatLength(meta[MEDIA_TUS_METADATA.chatLength] ?? undefined, 'Upload-Metadata');
  if (chatLength !== undefined && type.data !== 'voicememo') {
    throw badRequest(`Upload-Metadata: ${mediaMessages.chatLengthNotVoiceMemo}`);
  }
  if (type.data === 'callrecording') throw badRequest(`Upload-Metadata: ${mediaMessages.recordingNotOverTus}`);
  return { caseId, type: type.data, idempotencyKey: key, chatLength };
}

export async function tusRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  media: MediaService,
  options: { dir: string; locker?: Locker },
): Promise<{ cleanExpired(): Promise<number> }> {
  // FileStore makes its directory in the background; made here first, the start-up sweep of expired
  // uploads cannot race it on a fresh DATA_DIR.
  await mkdir(options.dir, { recursive: true });
  const datastore = new FileStore({ directory: options.dir, expirationPeriodInMilliseconds: EXPIRY_MS });
  // The tus server sees only the raw request; the principal our hook found travels beside it.
  const principals = new WeakMap<object, Principal>();
  const principalOf = (req: { runtime?: { node?: { req?: object } } }): Principal => {
    const raw = req.runtime?.node?.req;
    const principal = raw ? principals.get(raw) : undefined;
    if (!principal) throw new TusRefusal(unauthorized());
    return principal;
  };

  const tus = new Server({
    path: MEDIA_TUS_PATH,
    datastore,
    relativeLocation: true,
    // Several processes: one lock through Redis (redis-upload-locker.ts), so a resumed upload that lands
    // on another process waits for (and ends) the request still holding it on the first.
    ...(options.locker ? { locker: options.locker } : {}),
    maxSize: Math.max(...Object.values(MEDIA_MAX_BYTES)),
    // tus's own refusals (a size over the maximum, an unknown error) in our error shape — except its
    // "not now, re-read the offset" answers (a wrong offset 409, locked 423, checksum 460): those keep
    // tus's plain-text body, because a client tells them from a real refusal by the missing `message`
    // (the crew app's tusTransport.ts: a 409 with a message is final and the upload is forgotten; one
    // without is a HEAD and a resume). A PATCH resent from a stale offset after a cut is routine.
    onResponseError(_req, error) {
      if (error instanceof TusRefusal) return error;
      const tusError = error as { status_code?: number; body?: string; message?: string };
      const status = tusError.status_code ?? 500;
      if (TUS_RESUME_STATUSES.has(status)) return undefined;
      const message =
        status < 500 ? (tusError.body ?? tusError.message ?? 'Bad request.').trim() : 'Internal server error.';
      return {
        status_code: status,
        body: JSON.stringify({ message, code: status < 500 ? 'bad_request' : 'internal' }),
      };
    },
    async onUploadCreate(req, upload) {
      try {
        const principal = principalOf(req);
        const meta = readMeta(upload.metadata);
        if (upload.size === undefined) throw badRequest('Upload-Length is required: the size must be known.');
        if (upload.size > MEDIA_MAX_BYTES[meta.type]) throw payloadTooLarge(meta.type);
        // Resumable uploads are the crew's (a recording goes as multipart): ED staff are refused here.
        await media.checkKind(
          principal,
          meta.caseId,
          await media.checkCanUpload(principal, meta.caseId),
          meta.type,
          undefined,
        );
        const createdAt = Date.parse(req.headers.get('created-at') ?? '');
        return {
          metadata: {
            [MEDIA_TUS_METADATA.caseId]: meta.caseId,
            [MEDIA_TUS_METADATA.type]: meta.type,
            [MEDIA_TUS_METADATA.idempotencyKey]: meta.idempotencyKey,
            ...(meta.chatLength === undefined ? {} : { [MEDIA_TUS_METADATA.chatLength]: String(meta.chatLength) }),
            [USER_KEY]: principal.userId,
            [CREATED_AT_KEY]: Number.isFinite(createdAt) ? new Date(createdAt).toISOString() : '',
          },
        };
      } catch (error) {
        throw refusal(error);
      }
    },
    async onUploadFinish(req, upload) {
      const file = path.join(options.dir, upload.id);
      try {
        const principal = principalOf(req);
        const meta = readMeta(upload.metadata);
        const received = await describeFile(file);
        const result = await media.accept(
          principal,
          {
            idempotencyKey: meta.idempotencyKey,
            requestHash: uploadRequestHash(meta.caseId, meta.type, received.sha256, meta.chatLength),
            clientCreatedAt: upload.metadata?.[CREATED_AT_KEY] || null,
          },
          meta.caseId,
          meta.type,
          received,
          // Opened while the case was open: the crew may close it while the bytes still travel.
          { allowClosed: true, ...(meta.chatLength === undefined ? {} : { chatLength: meta.chatLength }) },
        );
        return {
          status_code: 200,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
          },
          body: JSON.stringify(result.body),
        };
      } catch (error) {
        throw refusal(error);
      } finally {
        // The bytes are the media store's now (or refused): the partial upload is over either way.
        await rm(file, { force: true });
        await rm(`${file}.json`, { force: true });
      }
    },
  });

  /** A later request of an upload: only its creator may see it. */
  async function checkOwner(request: FastifyRequest, principal: Principal): Promise<void> {
    const id = (request.params as { uploadId?: string }).uploadId ?? '';
    let owner: string | null | undefined;
    try {
      owner = (await datastore.getUpload(id)).metadata?.[USER_KEY];
    } catch {
      owner = undefined;
    }
    if (owner !== principal.userId) throw notFound('Upload');
  }

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    if (!principal) throw unauthorized();
    // Said by tus in plain text otherwise; every answer of ours is { message, code }.
    if (request.headers['tus-resumable'] === undefined) {
      throw new AppError(412, 'bad_request', 'The Tus-Resumable header is required.');
    }
    if (request.method !== 'POST') await checkOwner(request, principal);
    principals.set(request.raw, principal);
    void reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };

  await app.register(async (scope) => {
    // The body belongs to the tus server, which streams it to disk: Fastify must not read it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({
      method: ['POST'],
      url: MEDIA_TUS_PATH,
      onRequest: [ctx.authenticate],
      schema: { hide: true },
      handler: handle,
    });
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${MEDIA_TUS_PATH}/:uploadId`,
      onRequest: [ctx.authenticate],
      schema: { hide: true },
      handler: handle,
    });
  });

  return { cleanExpired: () => datastore.deleteExpired() };
}
