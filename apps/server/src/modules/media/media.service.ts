/**
 * Media of a case (spec §3, §4, §7, §9). An upload is taken in three steps:
 *   1. the bytes arrive in a local file (multipart or tus), with their size and sha-256;
 *   2. they are sniffed (415 unless the content is of the type's formats) and stored durably as the
 *      original in the media store;
 *   3. the case event (photo, id, ekg, video, voicememo) and the `case_media` row are written in one
 *      case write — the cases module's path, with its Idempotency-Key, access and closed-case rules.
 * Then the answer goes out; conversion to what the hospital plays runs afterwards in the job queue,
 * and the upload reads `processing` until it is done.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  CASE_CHANNEL_EVENTS,
  MEDIA_MAX_BYTES,
  MEDIA_OUTPUT,
  mediaFileName,
  mediaMessages,
  MEDIA_ACCESS_TTL_MS,
  MEDIA_COUNTED_TYPES,
  type MediaAccessResponse,
  type MediaListResponse,
  type MediaStatus,
  type MediaType,
  type MediaUpload,
  type MediaUploadResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { Updateable } from 'kysely';
import type { CaseMediaTable, CaseRow } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { Answer, CasesService, WriteContext } from '../cases/cases.service.js';
import type { VoiceMemoChat, VoiceMemoDraft } from '../chat/chat.service.js';
import { createJobQueue, type JobObserver, type JobQueue } from './conversion-queue.js';
import { convert, durationMs, probe, unusableInput, type FfmpegPaths } from './ffmpeg.js';
import type { MediaRepository } from './media.repository.js';
import type { MediaLinks } from './media-access.js';
import type { MediaStore } from './media-store.js';
import { ACCEPTED, ACCEPTED_TEXT, sniff } from './sniff.js';

/** An upload's bytes in a local file, as the route or the tus server received them. */
export interface ReceivedFile {
  path: string;
  size: number;
  /** The first bytes, for sniffing. */
  head: Uint8Array;
}

export interface MediaServiceDeps {
  repo: MediaRepository;
  /** The case's writes, and the case outbox for `media.converted` (announce, committed). */
  cases: Pick<CasesService, 'write' | 'writable' | 'readable' | 'announce' | 'committed'>;
  store: MediaStore;
  clock: Clock;
  ffmpeg: FfmpegPaths;
  /** Scratch space for conversions, on local disk. */
  workDir: string;
  concurrency: number;
  /** Told of each finished conversion (metrics). */
  onConversionDone?: JobObserver;
  log: { warn(details: object, message: string): void };
  links: MediaLinks;
  /** The principal of a live session (null when revoked, expired or the user is disabled): a link's holder. */
  sessionPrincipal: (userId: string, sessionId: string) => Promise<Principal | null>;
  /** Voice memo as chat: records the VOICE_MEMO message of an upload with `chatLength` in its write. */
  voiceMemoChat?: VoiceMemoChat;
  /**
   * The read audit of hospital staff (HIPAA audit controls): a file opened, or a link to it made, by ED
   * staff of the case's destination is recorded like any other read of the case.
   */
  auditHospitalRead?: (read: { userId: string; hospitalId: string; caseId: string; at: Date }) => Promise<void>;
  /**
   * Call recordings (issue 12): throws unless `principal` answered the call `callId` of the case, the
   * call was answered and its department records calls (calls module). Without it none are taken.
   */
  authoriseRecording?: (principal: Principal, caseId: string, callId: string) => Promise<void>;
}

/** Who uploads: the case's owning crew (what the crew records) or the destination's ED staff (recordings). */
export type UploadSide = 'crew' | 'hospital';

/** ED staff of the case's current destination (who alone list and play call recordings). */
const edOfDestination = (principal: Principal, row: { destination_hospital_id: string | null }): boolean =>
  row.destination_hospital_id !== null && principal.edHospitalIds.includes(row.destination_hospital_id);

type MediaRow = CaseMediaTable;
type MediaCounts = MediaUploadResponse['mediaCounts'];

export const payloadTooLarge = (type: MediaType) =>
  new AppError(413, 'payload_too_large', mediaMessages.tooLarge(type, MEDIA_MAX_BYTES[type]));

const filePath = (caseId: string, uploadId: string, fileName: string): string =>
  `/media/twiage-cases/${encodeURIComponent(caseId)}/uploads/${encodeURIComponent(uploadId)}/${fileName}`;

export const mediaUrl = (caseId: string, uploadId: string, type: MediaType): string =>
  filePath(caseId, uploadId, mediaFileName(type));

export function toUpload(row: MediaRow): MediaUpload {
  const type = row.type as MediaType;
  return {
    id: row.id,
    type,
    status: row.status as MediaStatus,
    fileName: mediaFileName(type),
    contentType: row.output_content_type ?? MEDIA_OUTPUT[type].contentType,
    size: Number(row.output_size ?? row.original_size),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    createdAt: row.created_at,
    url: mediaUrl(row.case_id, row.id, type),
    ...(row.call_id !== null ? { callId: row.call_id } : {}),
    ...(row.partial === 1 ? { partial: true as const } : {}),
  };
}

function toCounts(counts: Map<string, number>): MediaCounts {
  return Object.fromEntries(MEDIA_COUNTED_TYPES.map((type) => [type, counts.get(type) ?? 0])) as MediaCounts;
}

export function createMediaService(deps: MediaServiceDeps) {
  const { repo, cases, store, clock, ffmpeg, workDir, log, links } = deps;

  async function auditIfHospital(principal: Principal, row: { id: string; destination_hospital_id: string | null }) {
    const hospitalId = row.destination_hospital_id;
    if (!deps.auditHospitalRead || !hospitalId || !principal.edHospitalIds.includes(hospitalId)) return;
    await deps.auditHospitalRead({ userId: principal.userId, hospitalId, caseId: row.id, at: clock.now() });
  }

  /** The converted file of an upload of the case, once there is one. */
  async function convertedFile(
    caseId: string,
    uploadId: string,
    fileName: string,
    reader: { principal: Principal; caseRow: { destination_hospital_id: string | null } },
  ) {
    const row = await repo.findById(uploadId);
    if (!row || row.case_id !== caseId || fileName !== mediaFileName(row.type as MediaType)) {
      throw notFound('Media file');
    }
    if (row.type === 'callrecording' && !edOfDestination(reader.principal, reader.caseRow))
      throw forbidden(mediaMessages.recordingForEdOnly);
    if (row.status === 'processing') throw conflict(mediaMessages.processing);
    if (row.status === 'failed' || !row.output_key || !row.output_content_type) {
      throw new AppError(409, 'conflict', mediaMessages.failed);
    }
    return { row, key: row.output_key, contentType: row.output_content_type };
  }
  /**
   * An upload's conversion ended (ready or failed): the row changes, and `media.converted` with the
   * upload as it is now goes into the case outbox in the same transaction (the upload itself was a case
   * event), so the case's subscribers hear of it even if this process dies right after.
   */
  async function finishConversion(id: string, changes: Updateable<MediaRow>): Promise<void> {
    await repo.update(id, changes, (trx, row) =>
      cases.announce(trx, row.case_id, {
        type: CASE_CHANNEL_EVENTS.mediaConverted,
        data: { caseId: row.case_id, upload: toUpload(row) },
      }),
    );
    cases.committed();
  }

  async function convertUpload(id: string, signal: AbortSignal): Promise<void> {
    const row = await repo.findById(id);
    if (!row || row.status !== 'processing') return;
    const type = row.type as MediaType;
    const output = MEDIA_OUTPUT[type];
    const source = await store.localCopy(row.original_key);
    const target = path.join(workDir, `${id}.${output.extension}`);
    try {
      const info = await probe(ffmpeg, source.path, signal);
      const unusable = unusableInput(type, info);
      if (unusable) {
        await finishConversion(id, { status: 'failed', failure: unusable, converted_at: clock.now().toISOString() });
        return;
      }
      await mkdir(workDir, { recursive: true });
      await convert(ffmpeg, type, info, source.path, target, signal);
      const converted = await probe(ffmpeg, target, signal);
      const size = (await stat(target)).size;
      const key = `cases/${row.case_id}/${id}/${mediaFileName(type)}`;
      await store.putFile(key, target);
      await finishConversion(id, {
        status: 'ready',
        output_key: key,
        output_content_type: output.contentType,
        output_size: size,
        duration_ms: type === 'photo' || type === 'id' || type === 'ekg' ? null : durationMs(converted),
        failure: null,
        converted_at: clock.now().toISOString(),
      });
    } finally {
      await rm(target, { force: true });
      await source.release();
    }
  }

  const failed = (id: string, error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    log.warn({ uploadId: id, reason }, 'media conversion failed');
    void repo
      .update(id, { status: 'failed', failure: reason.slice(0, 500), converted_at: clock.now().toISOString() })
      .catch((updateError: unknown) =>
        log.warn({ uploadId: id, reason: String(updateError) }, 'media status not saved'),
      );
  };
  // Two lanes: pictures and voice memos (seconds each) never wait behind videos (up to the job timeout
  // each); within a lane, uploaders take turns. Videos get the cores but one; pictures at least one.
  const pictures: JobQueue = createJobQueue(
    Math.max(1, Math.ceil(deps.concurrency / 2)),
    convertUpload,
    failed,
    deps.onConversionDone,
  );
  const videos: JobQueue = createJobQueue(
    Math.max(1, deps.concurrency - 1),
    convertUpload,
    failed,
    deps.onConversionDone,
  );
  /**
   * Once the type (and a recording's call) is known, still before the file's bytes are read: a crew
   * sends what it records, ED staff only the recording of a call they answered.
   */
  async function checkKind(
    principal: Principal,
    caseId: string,
    side: UploadSide,
    type: MediaType,
    callId: string | undefined,
  ): Promise<void> {
    if (callId !== undefined && type !== 'callrecording') throw badRequest(mediaMessages.callIdNotRecording);
    if (side === 'crew' && type === 'callrecording') throw forbidden(mediaMessages.recordingNotForCrew);
    if (side === 'hospital' && type !== 'callrecording') throw forbidden(mediaMessages.hospitalUploadsRecordingsOnly);
    if (type !== 'callrecording') return;
    if (callId === undefined) throw badRequest(mediaMessages.callIdMissing);
    if (!deps.authoriseRecording) throw forbidden(mediaMessages.recordingByAnswerer);
    await deps.authoriseRecording(principal, caseId, callId);
  }

  /** A recording's write: its uploader was authorised by checkKind; the case only has to exist. */
  const caseOfRecording = (found: { row: CaseRow } | null): CaseRow => {
    if (!found) throw notFound('Case');
    return found.row;
  };

  const enqueue = (id: string, type: MediaType, uploader: string) =>
    (type === 'video' ? videos : pictures).enqueue(id, uploader);

  return {
    /** Re-queues what a previous run left unconverted. */
    async start(): Promise<void> {
      for (const { id, type, uploaded_by } of await repo.pending()) enqueue(id, type as MediaType, uploaded_by);
    },
    whenIdle: () => Promise.all([pictures.whenIdle(), videos.whenIdle()]).then(() => undefined),
    queueSize: () => {
      const [p, v] = [pictures.size(), videos.size()];
      return { waiting: p.waiting + v.waiting, running: p.running + v.running };
    },
    close: () => Promise.all([pictures.close(), videos.close()]).then(() => undefined),

    /**
     * Before any byte is read: the case exists and the user may add to it — its owning crew while it
     * is open, or ED staff of its destination (who may upload only the recording of a call they
     * answered, `checkKind`). Anyone else gets the crew's refusal (403, 404, 409 closed).
     */
    async checkCanUpload(principal: Principal, caseId: string): Promise<UploadSide> {
      try {
        await cases.writable(principal, caseId);
        return 'crew';
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 403 || principal.edHospitalIds.length === 0) throw error;
        const row = await cases.readable(principal, caseId).catch(() => {
          throw error;
        });
        if (!edOfDestination(principal, row)) throw error;
        return 'hospital';
      }
    },

    checkKind,

    /**
     * Steps 2 and 3 of the header. The file is the service's from here: stored, or removed when the
     * upload is refused or was a duplicate. `allowClosed`: a resumable upload opened while the case
     * was open may finish after the crew closed it.
     */
    async accept(
      principal: Principal,
      ctx: WriteContext,
      caseId: string,
      type: MediaType,
      file: ReceivedFile,
      options: { allowClosed?: boolean; chatLength?: number; callId?: string; partial?: true } = {},
    ): Promise<Answer<MediaUploadResponse>> {
      const callId = type === 'callrecording' ? options.callId : undefined;
      const partial = callId !== undefined ? options.partial : undefined;
      let stored: string | null = null;
      let draft: VoiceMemoDraft | null = null;
      try {
        if (options.chatLength !== undefined && type !== 'voicememo')
          throw badRequest(mediaMessages.chatLengthNotVoiceMemo);
        if (options.chatLength !== undefined && !deps.voiceMemoChat)
          throw badRequest('Voice memos cannot be posted in the chat here.');
        if (type === 'callrecording' && callId === undefined) throw badRequest(mediaMessages.callIdMissing);
        if (file.size === 0) throw badRequest(mediaMessages.empty);
        if (file.size > MEDIA_MAX_BYTES[type]) throw payloadTooLarge(type);
        const sniffed = sniff(file.head);
        if (!sniffed || !ACCEPTED[type].includes(sniffed.format)) {
          throw new AppError(415, 'unsupported_media_type', mediaMessages.unsupported(type, ACCEPTED_TEXT[type]));
        }
        const uploadId = randomUUID();
        // A JPEG is already what the hospital gets: stored once, under its final name, and ready.
        const ready = sniffed.format === 'jpeg';
        const key = `cases/${caseId}/${uploadId}/${ready ? mediaFileName(type) : `original.${sniffed.extension}`}`;
        await store.putFile(key, file.path);
        stored = key;
        const result = await cases.write(
          principal,
          ctx,
          caseId,
          async (caseRow) => {
            // Checked again here (the route checked before reading the file): this is the write's gate.
            if (callId !== undefined) await checkKind(principal, caseId, 'hospital', type, callId);
            const chatLength = options.chatLength;
            if (chatLength !== undefined && deps.voiceMemoChat) {
              draft = await deps.voiceMemoChat.prepare(principal, caseRow, {
                lengthSeconds: chatLength,
                idempotencyKey: ctx.idempotencyKey,
                requestHash: ctx.requestHash,
                clientCreatedAt: ctx.clientCreatedAt,
              });
            }
            return async ({ trx, emit, now }) => {
              const added = {
                uploadId,
                type,
                fileName: mediaFileName(type),
                contentType: sniffed.contentType,
                size: file.size,
              };
              if (callId !== undefined && (await repo.recordingOf(callId, trx)))
                throw conflict(mediaMessages.alreadyRecorded);
              const event =
                callId !== undefined
                  ? await emit('callrecording', { ...added, callId, ...(partial ? { partial } : {}) })
                  : await emit(type, added);
              const row: MediaRow = {
                id: uploadId,
                case_id: caseId,
                type,
                status: ready ? 'ready' : 'processing',
                event_id: event.id,
                uploaded_by: principal.userId,
                original_key: key,
                original_content_type: sniffed.contentType,
                original_size: file.size,
                output_key: ready ? key : null,
                output_content_type: ready ? sniffed.contentType : null,
                output_size: ready ? file.size : null,
                duration_ms: null,
                failure: null,
                created_at: now,
                converted_at: ready ? now : null,
                call_id: callId ?? null,
                partial: partial ? 1 : null,
              };
              await repo.insert(trx, row);
              const answer: MediaUploadResponse = {
                upload: toUpload(row),
                mediaCounts: toCounts(await repo.countsByType(caseId, trx)),
                event: { ...event, type },
              };
              // The chat message in the same transaction: the memo and its message exist together or not at all.
              if (draft && deps.voiceMemoChat)
                answer.chatMessage = await deps.voiceMemoChat.insert(trx, draft, uploadId, now);
              return answer;
            };
          },
          {
            status: 201,
            // A recording is uploaded when the call ends: the crew may have closed the case by then.
            ...(options.allowClosed || callId !== undefined ? { allowClosed: true } : {}),
            // The recording's uploader is ED staff, authorised by checkKind above, not the case's owner.
            ...(callId !== undefined ? { authorise: caseOfRecording } : {}),
          },
        );
        if (result.replayed) {
          await store.remove(key);
        } else {
          stored = null;
          if (result.body.upload.status === 'processing') enqueue(uploadId, type, principal.userId);
          const message = result.body.chatMessage;
          if (draft && message && deps.voiceMemoChat) {
            await deps.voiceMemoChat
              .published(draft, message)
              .catch((error: unknown) =>
                log.warn({ uploadId, reason: (error as Error).message }, 'voice memo chat message not published'),
              );
          }
        }
        return result;
      } catch (error) {
        if (stored) await store.remove(stored).catch(() => undefined);
        throw error;
      } finally {
        await rm(file.path, { force: true });
      }
    },

    async list(principal: Principal, caseId: string): Promise<MediaListResponse> {
      const caseRow = await cases.readable(principal, caseId);
      const ed = edOfDestination(principal, caseRow);
      const rows = (await repo.byCase(caseId)).filter((row) => ed || row.type !== 'callrecording');
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.type, (counts.get(row.type) ?? 0) + 1);
      return { uploads: rows.map(toUpload), mediaCounts: toCounts(counts) };
    },

    /** The converted file of an upload, for a user allowed to see the case. */
    async file(
      principal: Principal,
      caseId: string,
      uploadId: string,
      fileName: string,
    ): Promise<{ key: string; contentType: string; size: number }> {
      const caseRow = await cases.readable(principal, caseId);
      await auditIfHospital(principal, caseRow);
      const { key, contentType } = await convertedFile(caseId, uploadId, fileName, { principal, caseRow });
      const size = await store.size(key);
      if (size === null) throw notFound('Media file');
      return { key, contentType, size };
    },

    /** The same file for a request carrying a link from `access` instead of a token. */
    async fileByLink(
      caseId: string,
      uploadId: string,
      fileName: string,
      access: string,
    ): Promise<{ key: string; contentType: string; size: number }> {
      const holder = links.verify(filePath(caseId, uploadId, fileName), access, clock.now().getTime());
      if (!holder) throw forbidden(mediaMessages.linkInvalid);
      // The holder must still be signed in and still see the case: a link dies with its holder's access.
      const principal = await deps.sessionPrincipal(holder.userId, holder.sessionId);
      if (!principal) throw forbidden(mediaMessages.linkInvalid);
      let caseRow;
      try {
        caseRow = await cases.readable(principal, caseId);
      } catch {
        throw forbidden(mediaMessages.linkInvalid);
      }
      const { key, contentType } = await convertedFile(caseId, uploadId, fileName, { principal, caseRow });
      const size = await store.size(key);
      if (size === null) throw notFound('Media file');
      return { key, contentType, size };
    },

    /** A short-lived link to the upload's converted file, for a user allowed to see the case. */
    async access(principal: Principal, caseId: string, uploadId: string): Promise<MediaAccessResponse> {
      // The link is what the browser then loads the file with: making it is the read to record.
      const caseRow = await cases.readable(principal, caseId);
      await auditIfHospital(principal, caseRow);
      const row = await repo.findById(uploadId);
      if (!row || row.case_id !== caseId) throw notFound('Upload');
      const { row: ready } = await convertedFile(caseId, uploadId, mediaFileName(row.type as MediaType), {
        principal,
        caseRow,
      });
      const expiresAt = clock.now().getTime() + MEDIA_ACCESS_TTL_MS;
      return {
        url: links.sign(mediaUrl(caseId, ready.id, ready.type as MediaType), expiresAt, {
          userId: principal.userId,
          sessionId: principal.sessionId,
        }),
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
