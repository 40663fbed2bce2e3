/**
 * The media module as the composition root sees it: store, repository, service, conversion queue,
 * multipart and tus routes, and the start and stop of the queue.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { RouteContext } from '../../http/bind-route.js';
import type { CasesService } from '../cases/cases.service.js';
import type { PublishCaseChange } from '../realtime/case-publisher.js';
import { createLocalMediaStore, type MediaStore } from './media-store.js';
import { createS3MediaStore } from './s3-media-store.js';
import { createMediaRepository } from './media.repository.js';
import { mediaRoutes } from './media.routes.js';
import { createMediaService } from './media.service.js';
import { tusRoutes } from './tus-uploads.js';

export interface MediaModuleDeps {
  db: Kysely<DB>;
  cases: CasesService;
  clock: Clock;
  config: Config['media'];
  publishChange?: PublishCaseChange;
  log: { warn(details: object, message: string): void };
  /** Another store (a bucket); by default files under `config.dir`. */
  store?: MediaStore;
}

export function createMediaModule(deps: MediaModuleDeps) {
  const { config } = deps;
  // Scratch directories start with a dot: store keys never do, so they cannot collide.
  const incomingDir = path.join(config.dir, '.incoming');
  const store =
    deps.store ??
    (config.s3 ? createS3MediaStore(config.s3, path.join(config.dir, '.work')) : createLocalMediaStore(config.dir));
  const service = createMediaService({
    repo: createMediaRepository(deps.db),
    cases: deps.cases,
    store,
    clock: deps.clock,
    ffmpeg: { ffmpeg: config.ffmpeg, ffprobe: config.ffprobe },
    workDir: path.join(config.dir, '.work'),
    concurrency: config.convertJobs,
    log: deps.log,
    ...(deps.publishChange ? { announce: deps.publishChange } : {}),
  });

  return {
    service,
    store,
    /** Registers the routes, then re-queues unconverted uploads and drops day-old partial tus uploads. */
    async routes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
      await mediaRoutes(app, ctx, service, { store, incomingDir });
      const tus = await tusRoutes(app, ctx, service, { dir: path.join(config.dir, '.tus') });
      await tus.cleanExpired().catch((error: unknown) => {
        deps.log.warn({ reason: (error as Error).message }, 'expired partial uploads not removed');
      });
      await service.start();
    },
    close: () => service.close(),
  };
}
