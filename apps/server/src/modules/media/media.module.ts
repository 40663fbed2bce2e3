/**
 * The media module as the composition root sees it: store, repository, service, conversion queue,
 * multipart and tus routes, and the start and stop of the queue.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MediaUpload } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { RouteContext } from '../../http/bind-route.js';
import type { CasesService } from '../cases/cases.service.js';
import type { VoiceMemoChat } from '../chat/chat.service.js';
import { createMediaLinks } from './media-access.js';
import { createLocalMediaStore, type MediaStore } from './media-store.js';
import { createS3MediaStore } from './s3-media-store.js';
import type { MediaRepository } from './media.repository.js';
import { mediaRoutes } from './media.routes.js';
import { createMediaService, toUpload, type MediaServiceDeps } from './media.service.js';
import { tusRoutes } from './tus-uploads.js';
import type { Locker } from '@tus/utils';

export interface MediaModuleDeps {
  repo: MediaRepository;
  cases: CasesService;
  clock: Clock;
  config: Config['media'];
  /** The server's signing secret; media links use a key derived from it. */
  secret: string;
  log: { warn(details: object, message: string): void };
  /** Another store (a bucket); by default files under `config.dir`. */
  store?: MediaStore;
  /** The chat's voice-memo writer (a voicememo upload with `chatLength` becomes a VOICE_MEMO message). */
  voiceMemoChat?: VoiceMemoChat;
  auditHospitalRead?: MediaServiceDeps['auditHospitalRead'];
  /** Call recordings: who may upload one (calls module). */
  authoriseRecording?: MediaServiceDeps['authoriseRecording'];
  onConversionDone?: MediaServiceDeps['onConversionDone'];
  /** The tus upload lock shared by every process (Redis); by default tus's in-process lock. */
  uploadLocker?: Locker;
  /** From the auth module: a media link's holder, while their session lives. */
  sessionPrincipal: MediaServiceDeps['sessionPrincipal'];
}

const SCRATCH_MAX_AGE_MS = 24 * 3_600_000;

/**
 * Scratch files a crashed process left behind (a multipart upload cut off, a conversion killed).
 * Only day-old ones: other server processes sharing the directory may be using fresh ones.
 */
async function removeStaleScratch(dir: string, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // not made yet
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const { mtimeMs } = await stat(file);
    if (now - mtimeMs > SCRATCH_MAX_AGE_MS) await rm(file, { force: true, recursive: true });
  }
}

export function createMediaModule(deps: MediaModuleDeps) {
  const { config } = deps;
  // Scratch directories start with a dot: store keys never do, so they cannot collide.
  const incomingDir = path.join(config.dir, '.incoming');
  const workDir = path.join(config.dir, '.work');
  const store = deps.store ?? (config.s3 ? createS3MediaStore(config.s3, workDir) : createLocalMediaStore(config.dir));
  const service = createMediaService({
    repo: deps.repo,
    cases: deps.cases,
    store,
    clock: deps.clock,
    ffmpeg: { ffmpeg: config.ffmpeg, ffprobe: config.ffprobe, limits: config.jobLimits },
    workDir,
    links: createMediaLinks(deps.secret),
    sessionPrincipal: deps.sessionPrincipal,
    concurrency: config.convertJobs,
    log: deps.log,
    ...(deps.voiceMemoChat ? { voiceMemoChat: deps.voiceMemoChat } : {}),
    ...(deps.auditHospitalRead ? { auditHospitalRead: deps.auditHospitalRead } : {}),
    ...(deps.authoriseRecording ? { authoriseRecording: deps.authoriseRecording } : {}),
    ...(deps.onConversionDone ? { onConversionDone: deps.onConversionDone } : {}),
  });

  return {
    service,
    store,
    /** Registers the routes, then re-queues unconverted uploads and drops day-old partial uploads. */
    async routes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
      await mediaRoutes(app, ctx, service, { store, incomingDir });
      const tus = await tusRoutes(app, ctx, service, {
        dir: path.join(config.dir, '.tus'),
        ...(deps.uploadLocker ? { locker: deps.uploadLocker } : {}),
      });
      // File times are the wall clock's, not the app clock's (which tests move).
      const now = Date.now();
      await Promise.all([
        tus.cleanExpired(),
        removeStaleScratch(incomingDir, now),
        removeStaleScratch(workDir, now),
      ]).catch((error: unknown) => {
        deps.log.warn({ reason: (error as Error).message }, 'stale partial uploads not removed');
      });
      await service.start();
    },
    close: () => service.close(),
  };
}

/** An upload as the case's media list shows it (the case outbox's `case.updated` of a media event carries it). */
export function createMediaUploads(repo: MediaRepository) {
  return {
    async upload(uploadId: string): Promise<MediaUpload | null> {
      const row = await repo.findById(uploadId);
      return row ? toUpload(row) : null;
    },
  };
}
