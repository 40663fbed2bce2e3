/**
 * The broker carries a stored message to the other server processes, and knows which users have a
 * socket open anywhere. In one process (the default) there is nothing to carry: the gateway delivers
 * its own publishes itself, so the in-memory broker only answers for this process's users. With
 * REDIS_URL set, `redis-broker.ts` does both across processes.
 */
import type { RealtimeEvent } from '@inbound/contract';

export interface BrokerMessage {
  channel: string;
  seq: number;
  event: RealtimeEvent;
  /** When it was published (epoch ms, the publishing host's clock): for the delivery-latency metric. */
  publishedAt?: number;
}

export interface Broker {
  readonly kind: 'memory' | 'redis';
  /** Hands a stored message to the other processes (this process has already delivered it). */
  publish(message: BrokerMessage): Promise<void>;
  /**
   * Asks the other processes to check their subscribers of the channel again (access to it changed).
   * Carried on the channel itself, so it reaches only the processes with a subscriber, and in order with
   * the channel's messages: a message published after it is not delivered ahead of the check.
   */
  reauthorize(channel: string): Promise<void>;
  /** From now on, messages of the channel published by other processes reach `onMessage`. */
  subscribe(channel: string): Promise<void>;
  unsubscribe(channel: string): Promise<void>;
  /** The user's first socket on this process opened / last one closed. */
  userOnline(userId: string): void;
  userOffline(userId: string): void;
  /** Whether the user has a socket open on another process. */
  isConnectedElsewhere(userId: string): Promise<boolean>;
  /**
   * Tells the other processes that case events or messages were committed here, for the case outbox's
   * relay, which runs on one of them (case-outbox.ts). Fire and forget: a lost signal waits for its poll.
   */
  signalOutbox(): void;
  /** Calls `listener` whenever another process signals its outbox. */
  onOutboxSignal(listener: () => void): void;
  /** Resolves when the broker answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerListeners {
  onMessage(message: BrokerMessage): void;
  /** Another process asked for the channel's subscribers to be checked again. */
  onReauthorize(channel: string): void;
  /** After the broker lost its connection and got it back: messages of that time may be missing. */
  onResync(): void;
  /** The users with a socket open on this process (the broker refreshes their presence). */
  localUsers(): Iterable<string>;
}

export function createMemoryBroker(): Broker {
  return {
    kind: 'memory',
    publish: () => Promise.resolve(),
    reauthorize: () => Promise.resolve(),
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    userOnline: () => undefined,
    userOffline: () => undefined,
    isConnectedElsewhere: () => Promise.resolve(false),
    signalOutbox: () => undefined,
    onOutboxSignal: () => undefined,
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
