/**
 * Redis pub/sub between server processes (REDIS_URL). Each real-time channel is one Redis channel
 * (`{prefix}rt:{channel}`), subscribed only while this process has a socket on it. A message carries the
 * id of the process that published it, which skips its own echo (it delivered locally already). A
 * request to re-authorise a channel's subscribers travels on the same Redis channel, in order with its
 * messages.
 *
 * Presence: per user a sorted set `{prefix}rt:presence:{userId}` of process ids scored by when their
 * claim expires. Each process refreshes its users' entries every PRESENCE_REFRESH_MS; a process that dies
 * stops refreshing and its entries count as gone PRESENCE_TTL_MS later, without anyone cleaning up.
 *
 * The case outbox's signal: `{prefix}outbox`, whose message is the id of the process that committed.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Broker, BrokerListeners, BrokerMessage } from './broker.js';

export const PRESENCE_REFRESH_MS = 10_000;
export const PRESENCE_TTL_MS = 30_000;

/** A stored message, or a request to check the channel's subscribers again; `from` is the sending process. */
type Wire = (BrokerMessage & { from: string }) | { from: string; channel: string; reauthorize: true };

export async function createRedisBroker(
  url: string,
  prefix: string,
  listeners: BrokerListeners,
  onError: (error: Error) => void,
): Promise<Broker> {
  const processId = randomUUID();
  const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
  const commands = new Redis(url, options);
  const subscriber = new Redis(url, options);
  commands.on('error', onError);
  subscriber.on('error', onError);
  // Fail the start when Redis cannot be reached: a process that silently delivers to nobody else is worse.
  await Promise.all([commands.connect(), subscriber.connect()]);

  const channelPrefix = `${prefix}rt:`;
  const presenceKey = (userId: string) => `${prefix}rt:presence:${userId}`;
  const outboxChannel = `${prefix}outbox`;
  const outboxListeners: (() => void)[] = [];

  subscriber.on('message', (redisChannel: string, text: string) => {
    if (redisChannel === outboxChannel) {
      if (text !== processId) for (const listener of outboxListeners) listener();
      return;
    }
    if (!redisChannel.startsWith(channelPrefix)) return;
    let wire: Wire;
    try {
      wire = JSON.parse(text) as Wire;
    } catch {
      return;
    }
    if (wire.from === processId) return;
    if ('reauthorize' in wire) listeners.onReauthorize(wire.channel);
    else
      listeners.onMessage({ channel: wire.channel, seq: wire.seq, event: wire.event, publishedAt: wire.publishedAt });
  });
  await subscriber.subscribe(outboxChannel);
  // ioredis subscribes again by itself after a reconnect; what was published meanwhile is read back
  // from the database by the gateway (and the outbox's poll finds what was committed).
  let connectedOnce = false;
  subscriber.on('ready', () => {
    if (connectedOnce) listeners.onResync();
    connectedOnce = true;
  });

  async function refreshPresence(): Promise<void> {
    const expires = Date.now() + PRESENCE_TTL_MS;
    const pipeline = commands.pipeline();
    let count = 0;
    for (const userId of listeners.localUsers()) {
      pipeline.zadd(presenceKey(userId), expires, processId).pexpire(presenceKey(userId), PRESENCE_TTL_MS);
      count += 1;
    }
    if (count > 0) await pipeline.exec();
  }
  const refresher = setInterval(() => {
    refreshPresence().catch(onError);
  }, PRESENCE_REFRESH_MS);
  refresher.unref();

  return {
    kind: 'redis',
    async publish(message) {
      const wire: Wire = { ...message, from: processId };
      await commands.publish(channelPrefix + message.channel, JSON.stringify(wire));
    },
    async reauthorize(channel) {
      const wire: Wire = { from: processId, channel, reauthorize: true };
      await commands.publish(channelPrefix + channel, JSON.stringify(wire));
    },
    async subscribe(channel) {
      await subscriber.subscribe(channelPrefix + channel);
    },
    async unsubscribe(channel) {
      await subscriber.unsubscribe(channelPrefix + channel);
    },
    userOnline(userId) {
      const key = presenceKey(userId);
      commands
        .multi()
        .zadd(key, Date.now() + PRESENCE_TTL_MS, processId)
        .pexpire(key, PRESENCE_TTL_MS)
        .exec()
        .catch(onError);
    },
    userOffline(userId) {
      commands.zrem(presenceKey(userId), processId).catch(onError);
    },
    async isConnectedElsewhere(userId) {
      const count = await commands.zcount(presenceKey(userId), `(${Date.now()}`, '+inf');
      return count > 0;
    },
    signalOutbox() {
      commands.publish(outboxChannel, processId).catch(onError);
    },
    onOutboxSignal(listener) {
      outboxListeners.push(listener);
    },
    async ping() {
      await commands.ping();
    },
    async close() {
      clearInterval(refresher);
      const users = [...listeners.localUsers()];
      if (users.length > 0) {
        const pipeline = commands.pipeline();
        for (const userId of users) pipeline.zrem(presenceKey(userId), processId);
        await pipeline.exec().catch(() => undefined);
      }
      subscriber.disconnect();
      await commands.quit().catch(() => undefined);
    },
  };
}
