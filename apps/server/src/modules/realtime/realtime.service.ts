/**
 * The real-time gateway: stores and delivers published messages (RealtimePublisher), and keeps the
 * sockets of this process honest — a heartbeat sweep closes silent ones, a revocation sweep closes
 * those whose session ended, a prune removes messages past the retention time.
 *
 * Revocation is a periodic batched check of the sessions table rather than an event from the auth
 * service: a sign-out on another server process (or a password change, or an admin disabling a user)
 * must close this process's sockets too, and the table is the one place all processes see. One query
 * per REVOCATION_BATCH open sessions every REVOCATION_CHECK_MS keeps it cheap.
 */
import type { WebSocket } from 'ws';
import { ChannelName, REALTIME_CLOSE, RealtimeEvent, channelName, type RealtimeSecret } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { Principal } from '../auth/principal.js';
import type { Broker } from './broker.js';
import type { ChannelAuthorizers } from './channel-authorizers.js';
import { createChannelStreams } from './channel-streams.js';
import { Connection } from './connection.js';
import type { RealtimePublisher } from './publisher.js';
import type { RealtimeRepository, StoredMessage } from './realtime.repository.js';

export const REALTIME_PATH = '/realtime';
export const REVOCATION_CHECK_MS = 2_000;
export const REVOCATION_BATCH = 500;
export const PRUNE_EVERY_MS = 3_600_000;

export interface RealtimeSettings {
  heartbeatMs: number;
  maxFrameBytes: number;
  maxMessagesPerSecond: number;
  retentionMs: number;
}

export interface RealtimeGatewayDeps {
  repo: RealtimeRepository;
  clock: Clock;
  authenticate(authorization: string): Promise<Principal>;
  /** Roles and memberships read again (no cache) when a channel is re-authorised; see ConnectionDeps. */
  reloadPrincipal?(principal: Principal): Promise<Principal | null>;
  authorizers: ChannelAuthorizers;
  settings: RealtimeSettings;
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
}

/** The broker is made after the gateway (it delivers into it), so it is handed over by `useBroker`. */
export function createRealtimeGateway(deps: RealtimeGatewayDeps) {
  const { repo, clock, settings, log } = deps;
  let broker: Broker | null = null;
  const connections = new Set<Connection>();
  /** userId → open authenticated sockets on this process. */
  const users = new Map<string, number>();
  /** channel → sockets whose subscription to it is being authorised (not yet in its stream). */
  const authorizing = new Map<string, Set<Connection>>();

  const logError = (error: unknown, what: string) =>
    log.error({ err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, what);

  const streams = createChannelStreams({
    head: (channel) => repo.head(channel),
    after: (channel, afterSeq, uptoSeq) => repo.after(channel, afterSeq, uptoSeq),
    listen: (channel) => broker?.subscribe(channel) ?? Promise.resolve(),
    unlisten: (channel) => broker?.unsubscribe(channel) ?? Promise.resolve(),
    onError: (error) => logError(error, 'real-time channel read failed'),
  });

  const connectionDeps = {
    authenticate: deps.authenticate,
    ...(deps.reloadPrincipal ? { reloadPrincipal: deps.reloadPrincipal } : {}),
    authorizers: deps.authorizers,
    streams,
    heartbeatMs: settings.heartbeatMs,
    maxFrameBytes: settings.maxFrameBytes,
    maxMessagesPerSecond: settings.maxMessagesPerSecond,
    logError,
    onAuthenticated(connection: Connection) {
      const userId = connection.principal!.userId;
      const count = users.get(userId) ?? 0;
      users.set(userId, count + 1);
      if (count === 0) broker?.userOnline(userId);
    },
    onAuthorizing(connection: Connection, channel: string, started: boolean) {
      const pending = authorizing.get(channel) ?? new Set<Connection>();
      if (started) authorizing.set(channel, pending.add(connection));
      else if (pending.delete(connection) && pending.size === 0) authorizing.delete(channel);
    },
    onClosed(connection: Connection) {
      connections.delete(connection);
      if (!connection.principal) return;
      const userId = connection.principal.userId;
      const count = (users.get(userId) ?? 1) - 1;
      if (count > 0) users.set(userId, count);
      else {
        users.delete(userId);
        broker?.userOffline(userId);
      }
    },
  };

  // One sweep for all sockets: a socket silent through a whole interval (no frame, no pong to the last
  // ping) is closed, so a dead peer is noticed within two intervals (20 s with the default 10 s).
  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.close(REALTIME_CLOSE.heartbeatTimeout, 'heartbeat timeout');
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, settings.heartbeatMs);
  heartbeat.unref();

  let checkingSessions = false;
  async function closeRevoked(): Promise<void> {
    if (checkingSessions) return;
    checkingSessions = true;
    try {
      const bySession = new Map<string, Connection[]>();
      for (const connection of connections) {
        if (!connection.principal) continue;
        const list = bySession.get(connection.principal.sessionId) ?? [];
        list.push(connection);
        bySession.set(connection.principal.sessionId, list);
      }
      const sessionIds = [...bySession.keys()];
      const now = clock.now().toISOString();
      for (let i = 0; i < sessionIds.length; i += REVOCATION_BATCH) {
        const invalid = await repo.invalidSessions(sessionIds.slice(i, i + REVOCATION_BATCH), now);
        for (const sessionId of invalid) {
          for (const connection of bySession.get(sessionId) ?? []) {
            connection.close(REALTIME_CLOSE.revoked, 'session ended');
          }
        }
      }
    } catch (error) {
      logError(error, 'real-time session check failed');
    } finally {
      checkingSessions = false;
    }
  }
  const revocation = setInterval(() => void closeRevoked(), REVOCATION_CHECK_MS);
  revocation.unref();

  async function prune(): Promise<void> {
    try {
      await repo.prune(new Date(clock.now().getTime() - settings.retentionMs).toISOString());
    } catch (error) {
      logError(error, 'real-time prune failed');
    }
  }
  const pruning = setInterval(() => void prune(), PRUNE_EVERY_MS);
  pruning.unref();
  void prune();

  const deliver = (message: StoredMessage) => streams.deliver(message);

  /**
   * Checks this process's sockets on the channel again — those subscribed and those being authorised
   * for it — and ends the subscriptions now refused. Costs one check per subscriber of the channel.
   * Each socket holds the channel's messages from the first (synchronous) step until its answer.
   */
  async function reauthorizeLocal(channel: string): Promise<void> {
    const sockets = new Set<Connection>(authorizing.get(channel));
    for (const subscriber of streams.subscribersOf(channel)) {
      if (subscriber instanceof Connection) sockets.add(subscriber);
    }
    await Promise.all([...sockets].map((connection) => connection.reauthorize(channel)));
  }

  /** A stored message to this process's subscribers and, through the broker, to the other processes'. */
  function handOut(message: StoredMessage): { seq: number } {
    deliver(message);
    broker?.publish(message).catch((error: unknown) => logError(error, 'real-time broker publish failed'));
    return { seq: message.seq };
  }

  const publisher: RealtimePublisher = {
    async publish(channel, event) {
      if (!ChannelName.safeParse(channel).success) throw new Error(`not a channel name: ${channel}`);
      const checked = RealtimeEvent.parse(event);
      return handOut({ channel, seq: await repo.append(channel, checked), event: checked });
    },
    async publishOnce(channel, event, dedupeKey) {
      if (!ChannelName.safeParse(channel).success) throw new Error(`not a channel name: ${channel}`);
      const checked = RealtimeEvent.parse(event);
      return handOut({ channel, seq: await repo.appendOnce(channel, checked, dedupeKey), event: checked });
    },
    async reauthorize(channel) {
      if (!ChannelName.safeParse(channel).success) throw new Error(`not a channel name: ${channel}`);
      // Both before any await: local messages are held from here, and the request goes out on the broker
      // ahead of any message published after this call. A broker failure is logged, not thrown, like a
      // publish's: the write has committed and its answer must not fail now.
      const remote = broker?.reauthorize(channel).catch((error: unknown) => {
        logError(error, 'real-time broker re-authorisation failed');
      });
      await Promise.all([reauthorizeLocal(channel), remote]);
    },
    async isUserConnected(userId) {
      if ((users.get(userId) ?? 0) > 0) return true;
      return broker ? broker.isConnectedElsewhere(userId) : false;
    },
  };

  return {
    publisher,
    /** For the broker: messages from other processes, and a resync after it reconnected. */
    brokerListeners: {
      onMessage: deliver,
      onReauthorize: (channel: string) => {
        reauthorizeLocal(channel).catch((error: unknown) => logError(error, 'real-time re-authorisation failed'));
      },
      onResync: () => streams.resync(),
      localUsers: () => users.keys(),
    },
    useBroker(chosen: Broker) {
      broker = chosen;
    },
    brokerKind: () => broker?.kind ?? 'memory',

    accept(socket: WebSocket): void {
      connections.add(new Connection(socket, connectionDeps));
    },

    secret(principal: Principal): RealtimeSecret {
      return {
        realtime: { path: REALTIME_PATH, heartbeatMs: settings.heartbeatMs },
        chat: { subscribe: channelName('case', '{caseId}') },
        api: { subscribe: channelName('user', principal.userId) },
      };
    },

    connectionCount: () => connections.size,

    async close(): Promise<void> {
      clearInterval(heartbeat);
      clearInterval(revocation);
      clearInterval(pruning);
      // 1001 "going away": clients reconnect (to another process, or to this one once restarted).
      for (const connection of [...connections]) connection.close(1001, 'server shutting down');
      streams.close();
      await broker?.close();
    },
  };
}

export type RealtimeGateway = ReturnType<typeof createRealtimeGateway>;
