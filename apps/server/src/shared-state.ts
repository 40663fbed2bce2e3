/**
 * What several server processes must share besides the database and the real-time broker: the sign-in
 * rate limits (@fastify/rate-limit's Redis store) and the tus upload lock (modules/media/
 * redis-upload-locker.ts). Without REDIS_URL (one process) both stay in memory.
 *
 * The rest of the per-process state is shared elsewhere: reference caches are invalidated by the
 * database's reference version (db/reference-version.ts), presence and live messages go through the
 * Redis broker, per-account sign-in throttling and sessions live in the database, and the JWT secret
 * and VAPID keys are made once, before the workers start (main.ts).
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Locker } from '@tus/utils';
import { Redis } from 'ioredis';
import { createRedisUploadLocker } from './modules/media/redis-upload-locker.js';

export interface SharedState {
  /** Options for @fastify/rate-limit: a Redis store when there is Redis. */
  rateLimit: RateLimitPluginOptions;
  /** The tus lock across processes; null: tus's own in-process lock. */
  uploadLocker: Locker | null;
  close(): Promise<void>;
}

export async function createSharedState(
  redis: { url: string; prefix: string } | null,
  onError: (error: Error) => void,
): Promise<SharedState> {
  if (!redis) return { rateLimit: { global: false }, uploadLocker: null, close: () => Promise.resolve() };
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  client.on('error', onError);
  await client.connect();
  const uploadLocker = await createRedisUploadLocker(redis.url, redis.prefix, onError);
  return {
    // Sign-in is the only limited route; with Redis down it fails closed (500s) rather than unlimited.
    rateLimit: { global: false, redis: client, nameSpace: `${redis.prefix}rate-limit:`, skipOnError: false },
    uploadLocker,
    async close() {
      await uploadLocker.close();
      await client.quit().catch(() => undefined);
    },
  };
}
