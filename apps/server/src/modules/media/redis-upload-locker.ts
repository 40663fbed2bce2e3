/**
 * The tus upload lock shared by every server process through Redis. tus allows one request at a time on
 * an upload; its own MemoryLocker only knows this process's requests, so with several processes a crew
 * app resuming on another process (its old connection half-open on the first) could write the same
 * upload twice at once. Here a lock is a Redis key (`SET NX PX`, token-checked release), kept alive
 * while held and gone by itself if its process dies; a request that finds the upload locked asks the
 * holder, wherever it runs, to let go (tus's "request release": the holder ends its request), and
 * retries until it gets the lock or gives up after ACQUIRE_TIMEOUT_MS.
 */
import { randomUUID } from 'node:crypto';
import type { Lock, Locker, RequestRelease } from '@tus/utils';
import { ERRORS } from '@tus/utils';
import { Redis } from 'ioredis';

/** A held lock's key outlives a dead process by at most this. */
const LOCK_TTL_MS = 30_000;
const REFRESH_MS = 10_000;
const ACQUIRE_TIMEOUT_MS = 30_000;
const RETRY_MS = 25;

const RELEASE_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const REFRESH_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisUploadLocker extends Locker {
  close(): Promise<void>;
}

export async function createRedisUploadLocker(
  redisUrl: string,
  prefix: string,
  onError: (error: Error) => void,
): Promise<RedisUploadLocker> {
  const commands = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const releases = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  commands.on('error', onError);
  releases.on('error', onError);
  await Promise.all([commands.connect(), releases.connect()]);
  const releaseChannel = `${prefix}tus:release`;
  const lockKey = (id: string) => `${prefix}tus:lock:${id}`;
  // The uploads this process holds, and how to make each one's request let go.
  const held = new Map<string, RequestRelease>();
  await releases.subscribe(releaseChannel);
  releases.on('message', (_channel: string, id: string) => {
    const requestRelease = held.get(id);
    if (requestRelease) void Promise.resolve(requestRelease()).catch(onError);
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function newLock(id: string): Lock {
    const token = randomUUID();
    let refresh: NodeJS.Timeout | null = null;
    return {
      async lock(signal, requestRelease) {
        const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
        let asked = false;
        while (!signal.aborted && Date.now() < deadline) {
          const taken = await commands.set(lockKey(id), token, 'PX', LOCK_TTL_MS, 'NX');
          if (taken === 'OK') {
            held.set(id, requestRelease);
            refresh = setInterval(() => {
              commands.eval(REFRESH_IF_OURS, 1, lockKey(id), token, LOCK_TTL_MS).catch(onError);
            }, REFRESH_MS);
            refresh.unref();
            return;
          }
          // Once per attempt is enough: the holder ends its request and unlocks.
          if (!asked) {
            asked = true;
            await commands.publish(releaseChannel, id);
          }
          await sleep(RETRY_MS);
        }
        throw ERRORS.ERR_LOCK_TIMEOUT;
      },
      async unlock() {
        if (refresh) clearInterval(refresh);
        refresh = null;
        held.delete(id);
        await commands.eval(RELEASE_IF_OURS, 1, lockKey(id), token);
      },
    };
  }

  return {
    newLock,
    async close() {
      await Promise.allSettled([releases.quit(), commands.quit()]);
    },
  };
}
