/**
 * What several server processes must share besides the database and the real-time broker: the sign-in
 * rate limits (@fastify/rate-limit's Redis store) and the tus upload lock (modules/media/
 * redis-upload-locker.ts). Without REDIS_URL (one process) both stay in memory.
 *
 * Two more since issue 11: a session revoked (sign-out, password change, an administrator's edit of a
 * user) is announced on a Redis channel, so every process drops its cached principal at once rather
 * than after AUTH_CACHE_TTL (`revocations`); and the transfer-code guess limit counts in Redis
 * (`guessStore`, modules/transfers/guess-limit.ts).
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
import type { GuessStore } from './modules/transfers/guess-limit.js';

export interface SharedState {
  /** Options for @fastify/rate-limit: a Redis store when there is Redis. */
  rateLimit: RateLimitPluginOptions;
  /** The tus lock across processes; null: tus's own in-process lock. */
  uploadLocker: Locker | null;
  /** Session revocations told to every process; null: one process, nobody else to tell. */
  revocations: SessionRevocations | null;
  /** Where the transfer-code guess limit counts; null: in memory. */
  guessStore: GuessStore | null;
  close(): Promise<void>;
}

/** What makes other processes drop cached principals: a session, a user's sessions, all but one. */
export type Forget = { session: string } | { user: string; except?: string };

export interface SessionRevocations {
  announce(forget: Forget): void;
  listen(handler: (forget: Forget) => void): void;
}

function parseForget(text: string): Forget | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.session === 'string') return { session: value.session };
    if (typeof value.user === 'string')
      return typeof value.except === 'string' ? { user: value.user, except: value.except } : { user: value.user };
  } catch {
    // not ours: ignored
  }
  return null;
}

export async function createSharedState(
  redis: { url: string; prefix: string } | null,
  onError: (error: Error) => void,
): Promise<SharedState> {
  if (!redis)
    return {
      rateLimit: { global: false },
      uploadLocker: null,
      revocations: null,
      guessStore: null,
      close: () => Promise.resolve(),
    };
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  client.on('error', onError);
  await client.connect();
  // A connection in subscriber mode can do nothing else: its own.
  const subscriber = new Redis(redis.url, { lazyConnect: true, connectTimeout: 2_000 });
  subscriber.on('error', onError);
  await subscriber.connect();
  const channel = `${redis.prefix}session-revocations`;
  await subscriber.subscribe(channel);
  const uploadLocker = await createRedisUploadLocker(redis.url, redis.prefix, onError);
  const revocations: SessionRevocations = {
    announce(forget) {
      // A lost announcement leaves the other processes' AUTH_CACHE_TTL as the bound: logged, not thrown.
      client.publish(channel, JSON.stringify(forget)).catch((error: unknown) => onError(error as Error));
    },
    listen(handler) {
      subscriber.on('message', (from: string, text: string) => {
        if (from !== channel) return;
        const forget = parseForget(text);
        if (forget) handler(forget);
      });
    },
  };
  return {
    // Sign-in is the only limited route; with Redis down it fails closed (500s) rather than unlimited.
    rateLimit: { global: false, redis: client, nameSpace: `${redis.prefix}rate-limit:`, skipOnError: false },
    uploadLocker,
    revocations,
    guessStore: {
      get: (key) => client.get(key),
      eval: (script, keys, key, windowMs) => client.eval(script, keys, key, windowMs),
    },
    async close() {
      await uploadLocker.close();
      await subscriber.quit().catch(() => undefined);
      await client.quit().catch(() => undefined);
    },
  };
}
