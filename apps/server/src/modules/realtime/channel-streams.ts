/**
 * Per channel with a subscriber on this process: an ordered stream of its messages, and each
 * subscriber's position in it.
 *
 * Order. Messages reach a process out of order (two processes publish to one channel; the broker lost a
 * message), so the stream keeps `head`, the last number it delivered, holds back any message after a
 * hole and, if the hole is still there GAP_FILL_MS later, reads the missing ones from the database.
 * A message at or below `head` was delivered already and is dropped.
 *
 * Catch-up. A subscriber with `lastSeq` is added first, in catch-up mode: live messages are kept in its
 * buffer while what it missed is read from the database; then the buffer is flushed. Each subscriber
 * keeps the last number it was sent, and nothing at or below it is sent again — so the boundary between
 * catch-up and live has neither a hole nor a double.
 */
import { parseChannelName, type ServerFrame } from '@inbound/contract';
import type { StoredMessage } from './realtime.repository.js';

export const GAP_FILL_MS = 250;

/** One socket, as the streams see it. */
export interface Subscriber {
  send(frame: string): void;
}

interface SubscriberState {
  lastSent: number;
  /** Live messages that arrived during the catch-up; null once live. */
  buffer: StoredMessage[] | null;
  /** Messages kept back while the subscriber's access is checked again (`hold`); null when not held. */
  held: StoredMessage[] | null;
  holds: number;
}

interface Stream {
  channel: string;
  /** Null until the channel's current number is read (at creation). */
  head: number | null;
  ready: Promise<void>;
  pending: Map<number, StoredMessage>;
  gapTimer: NodeJS.Timeout | null;
  subscribers: Map<Subscriber, SubscriberState>;
}

export interface StreamSource {
  head(channel: string): Promise<number>;
  after(channel: string, afterSeq: number, uptoSeq?: number): Promise<StoredMessage[]>;
  /** Start / stop receiving the channel's messages from other processes. */
  listen(channel: string): Promise<void>;
  unlisten(channel: string): Promise<void>;
  onError(error: unknown, channel: string): void;
}

const frame = (value: ServerFrame): string => JSON.stringify(value);
const messageFrame = (message: StoredMessage): string =>
  frame({ type: 'message', channel: message.channel, seq: message.seq, event: message.event });

export function createChannelStreams(source: StreamSource) {
  const streams = new Map<string, Stream>();

  function sendTo(subscriber: Subscriber, state: SubscriberState, message: StoredMessage, text: string): void {
    if (message.seq <= state.lastSent) return;
    state.lastSent = message.seq;
    subscriber.send(text);
  }

  /** Sends the message unless the subscriber is held, which keeps it until released. */
  function pass(subscriber: Subscriber, state: SubscriberState, message: StoredMessage, text: string): void {
    if (state.held) state.held.push(message);
    else sendTo(subscriber, state, message, text);
  }

  function emit(stream: Stream, message: StoredMessage): void {
    stream.head = message.seq;
    // Serialised once for every socket of the channel.
    const text = messageFrame(message);
    for (const [subscriber, state] of stream.subscribers) {
      if (state.buffer) state.buffer.push(message);
      else pass(subscriber, state, message, text);
    }
  }

  /** Emits every held-back message that now follows `head`; answers whether a hole remains. */
  function drain(stream: Stream): boolean {
    for (;;) {
      const next = stream.pending.get((stream.head ?? 0) + 1);
      if (!next) break;
      stream.pending.delete(next.seq);
      emit(stream, next);
    }
    for (const seq of stream.pending.keys()) if (seq <= (stream.head ?? 0)) stream.pending.delete(seq);
    return stream.pending.size > 0;
  }

  function scheduleGapFill(stream: Stream): void {
    if (stream.gapTimer) return;
    stream.gapTimer = setTimeout(() => {
      stream.gapTimer = null;
      void fillGap(stream);
    }, GAP_FILL_MS);
    stream.gapTimer.unref();
  }

  async function fillGap(stream: Stream): Promise<void> {
    if (streams.get(stream.channel) !== stream || stream.head === null || stream.pending.size === 0) return;
    const upto = Math.max(...stream.pending.keys());
    try {
      const missing = await source.after(stream.channel, stream.head, upto);
      for (const message of missing) if (!stream.pending.has(message.seq)) stream.pending.set(message.seq, message);
      // Not in the database either (pruned): nothing can fill the hole, so the stream moves past it
      // rather than holding every later message back for ever.
      if (!stream.pending.has(stream.head + 1)) stream.head = Math.min(...stream.pending.keys()) - 1;
    } catch (error) {
      source.onError(error, stream.channel);
    }
    if (drain(stream)) scheduleGapFill(stream);
  }

  function deliver(message: StoredMessage): void {
    const stream = streams.get(message.channel);
    if (!stream) return;
    if (stream.head === null) {
      stream.pending.set(message.seq, message);
      return;
    }
    if (message.seq <= stream.head) return;
    if (message.seq === stream.head + 1) emit(stream, message);
    else stream.pending.set(message.seq, message);
    if (drain(stream)) scheduleGapFill(stream);
  }

  function open(channel: string): Stream {
    const existing = streams.get(channel);
    if (existing) return existing;
    const stream: Stream = {
      channel,
      head: null,
      ready: Promise.resolve(),
      pending: new Map(),
      gapTimer: null,
      subscribers: new Map(),
    };
    // Listen first, then read the head: a message committed before the read is at or below it (and is
    // the catch-up's), one committed after it arrives through the broker.
    stream.ready = (async () => {
      await source.listen(channel);
      stream.head = await source.head(channel);
      if (drain(stream)) scheduleGapFill(stream);
    })();
    streams.set(channel, stream);
    return stream;
  }

  function closeIfUnused(stream: Stream): void {
    if (stream.subscribers.size > 0 || streams.get(stream.channel) !== stream) return;
    streams.delete(stream.channel);
    if (stream.gapTimer) clearTimeout(stream.gapTimer);
    source.unlisten(stream.channel).catch((error: unknown) => source.onError(error, stream.channel));
  }

  return {
    deliver,

    /** Subscribers per channel kind (the part of the name before ':'). */
    subscriptionsByKind(): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const stream of streams.values()) {
        const kind = parseChannelName(stream.channel)?.kind ?? 'other';
        counts[kind] = (counts[kind] ?? 0) + stream.subscribers.size;
      }
      return counts;
    },

    /**
     * Adds the subscriber; with `lastSeq`, first sends what it missed. Sends the `subscribed` frame
     * (after the catch-up, before any live message) and answers the number it carries.
     */
    async subscribe(subscriber: Subscriber, channel: string, lastSeq: number | undefined): Promise<number> {
      const stream = open(channel);
      const state: SubscriberState = { lastSent: Number.MAX_SAFE_INTEGER, buffer: [], held: null, holds: 0 };
      stream.subscribers.set(subscriber, state);
      // Unsubscribed while a read was awaited (by the client, a refused re-check, the socket's close):
      // nothing more goes to it, not even `subscribed`, which would tell the client the channel is live.
      const ended = () => stream.subscribers.get(subscriber) !== state;
      try {
        await stream.ready;
        if (ended()) return state.lastSent;
        state.lastSent = lastSeq ?? stream.head ?? 0;
        if (lastSeq !== undefined) {
          let after = lastSeq;
          for (;;) {
            const page = await source.after(channel, after);
            if (ended()) return state.lastSent;
            for (const message of page) pass(subscriber, state, message, messageFrame(message));
            if (page.length === 0) break;
            after = page[page.length - 1]!.seq;
          }
        }
        for (const message of state.buffer ?? []) pass(subscriber, state, message, messageFrame(message));
        state.buffer = null;
        const seq = Math.max(state.lastSent, stream.head ?? 0);
        subscriber.send(frame({ type: 'subscribed', channel, seq }));
        return seq;
      } catch (error) {
        if (stream.subscribers.get(subscriber) === state) stream.subscribers.delete(subscriber);
        closeIfUnused(stream);
        throw error;
      }
    },

    unsubscribe(subscriber: Subscriber, channel: string): void {
      const stream = streams.get(channel);
      if (!stream) return;
      stream.subscribers.delete(subscriber);
      closeIfUnused(stream);
    },

    /** This process's subscribers of the channel (none when it has no stream for it). */
    subscribersOf(channel: string): Subscriber[] {
      return [...(streams.get(channel)?.subscribers.keys() ?? [])];
    },

    /**
     * Keeps the channel's messages back from the subscriber until `release` — while its access is checked
     * again, so nothing published after the change reaches it before the answer. Holds nest.
     */
    hold(subscriber: Subscriber, channel: string): void {
      const state = streams.get(channel)?.subscribers.get(subscriber);
      if (!state) return;
      state.holds += 1;
      state.held ??= [];
    },

    /** Ends a `hold`: the kept messages are sent (an unsubscribed subscriber's are dropped with it). */
    release(subscriber: Subscriber, channel: string): void {
      const state = streams.get(channel)?.subscribers.get(subscriber);
      if (!state?.held) return;
      state.holds -= 1;
      if (state.holds > 0) return;
      const held = state.held;
      state.held = null;
      for (const message of held) {
        if (state.buffer) state.buffer.push(message);
        else sendTo(subscriber, state, message, messageFrame(message));
      }
    },

    /** After the broker reconnected: read back from the database anything the streams may have missed. */
    resync(): void {
      for (const stream of streams.values()) {
        if (stream.head === null) continue;
        fillUpToNewest(stream).catch((error: unknown) => source.onError(error, stream.channel));
      }
    },

    channelCount: () => streams.size,

    close(): void {
      for (const stream of streams.values()) if (stream.gapTimer) clearTimeout(stream.gapTimer);
      streams.clear();
    },
  };

  async function fillUpToNewest(stream: Stream): Promise<void> {
    const newest = await source.head(stream.channel);
    while (stream.head !== null && stream.head < newest && streams.get(stream.channel) === stream) {
      const missing = await source.after(stream.channel, stream.head, newest);
      const before = stream.head;
      for (const message of missing) deliver(message);
      if (stream.head === before) return;
    }
  }
}

export type ChannelStreams = ReturnType<typeof createChannelStreams>;
