import { describe, expect, it } from 'vitest';
import { ServerFrame } from '@inbound/contract';
import { createChannelStreams, GAP_FILL_MS, type StreamSource } from './channel-streams.js';
import type { StoredMessage } from './realtime.repository.js';

const CHANNEL = 'user:u1';
const message = (seq: number): StoredMessage => ({ channel: CHANNEL, seq, event: { type: 'test', data: seq } });

/** A channel whose stored messages are 1..stored; `reads` counts the database reads. */
function fakeSource(stored: number) {
  const state = { stored, reads: 0 };
  const source: StreamSource = {
    head: () => Promise.resolve(state.stored),
    after: (_channel, afterSeq, uptoSeq) => {
      state.reads += 1;
      const last = Math.min(state.stored, uptoSeq ?? state.stored);
      const page: StoredMessage[] = [];
      for (let seq = afterSeq + 1; seq <= last; seq++) page.push(message(seq));
      return Promise.resolve(page);
    },
    listen: () => Promise.resolve(),
    unlisten: () => Promise.resolve(),
    onError: (error) => {
      throw error;
    },
  };
  return { source, state };
}

function recorder() {
  const frames: ServerFrame[] = [];
  return {
    subscriber: { send: (text: string) => frames.push(ServerFrame.parse(JSON.parse(text))) },
    seqs: () => frames.flatMap((f) => (f.type === 'message' ? [f.seq] : [])),
    frames,
  };
}

describe('channel streams', () => {
  it('puts messages that arrive out of order back in order, dropping doubles', async () => {
    const { source, state } = fakeSource(0);
    const streams = createChannelStreams(source);
    const client = recorder();
    expect(await streams.subscribe(client.subscriber, CHANNEL, undefined)).toBe(0);
    state.stored = 4;
    for (const seq of [2, 1, 1, 4, 3, 2]) streams.deliver(message(seq));
    expect(client.seqs()).toEqual([1, 2, 3, 4]);
    expect(state.reads).toBe(0);
  });

  it('fills a hole from the database when the missing message never arrives', async () => {
    const { source, state } = fakeSource(0);
    const streams = createChannelStreams(source);
    const client = recorder();
    await streams.subscribe(client.subscriber, CHANNEL, undefined);
    state.stored = 3;
    streams.deliver(message(1));
    streams.deliver(message(3));
    expect(client.seqs()).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, GAP_FILL_MS + 100));
    expect(client.seqs()).toEqual([1, 2, 3]);
  });

  it('catches a subscriber up from lastSeq, then live, with live messages of the catch-up buffered', async () => {
    const { source, state } = fakeSource(5);
    const streams = createChannelStreams(source);
    const early = recorder();
    await streams.subscribe(early.subscriber, CHANNEL, undefined);
    const late = recorder();
    const subscribing = streams.subscribe(late.subscriber, CHANNEL, 2);
    // Published while the catch-up reads: 6 and 7 reach the stream before the read answers.
    state.stored = 7;
    streams.deliver(message(6));
    streams.deliver(message(7));
    expect(await subscribing).toBe(7);
    streams.deliver(message(8));
    expect(late.seqs()).toEqual([3, 4, 5, 6, 7, 8]);
    expect(late.frames.findIndex((f) => f.type === 'subscribed')).toBe(5);
    expect(early.seqs()).toEqual([6, 7, 8]);
  });

  it('holds a subscriber back while its access is checked again: released, it gets what came meanwhile', async () => {
    const { source, state } = fakeSource(0);
    const streams = createChannelStreams(source);
    const [kept, dropped, other] = [recorder(), recorder(), recorder()];
    for (const client of [kept, dropped, other]) await streams.subscribe(client.subscriber, CHANNEL, undefined);
    expect(streams.subscribersOf(CHANNEL)).toEqual([kept.subscriber, dropped.subscriber, other.subscriber]);

    streams.hold(kept.subscriber, CHANNEL);
    streams.hold(kept.subscriber, CHANNEL);
    streams.hold(dropped.subscriber, CHANNEL);
    state.stored = 2;
    streams.deliver(message(1));
    streams.deliver(message(2));
    expect(other.seqs()).toEqual([1, 2]);
    expect(kept.seqs()).toEqual([]);
    // Holds nest: the first release of two sends nothing yet.
    streams.release(kept.subscriber, CHANNEL);
    expect(kept.seqs()).toEqual([]);
    streams.release(kept.subscriber, CHANNEL);
    expect(kept.seqs()).toEqual([1, 2]);
    streams.unsubscribe(dropped.subscriber, CHANNEL);
    streams.release(dropped.subscriber, CHANNEL);
    expect(dropped.seqs()).toEqual([]);
    expect(streams.subscribersOf(CHANNEL)).toEqual([kept.subscriber, other.subscriber]);
    expect(streams.subscribersOf('user:nobody')).toEqual([]);
  });

  it('sends nothing, not even `subscribed`, to a subscriber that ended while its subscription was read', async () => {
    const { source } = fakeSource(3);
    let headRead: () => void = () => {};
    const slowHead: StreamSource = {
      ...source,
      head: (channel) => new Promise((resolve) => (headRead = () => resolve(source.head(channel)))),
    };
    const streams = createChannelStreams(slowHead);
    const [live, caughtUp] = [recorder(), recorder()];
    const subscribing = [
      streams.subscribe(live.subscriber, CHANNEL, undefined),
      streams.subscribe(caughtUp.subscriber, CHANNEL, 1),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    streams.unsubscribe(live.subscriber, CHANNEL);
    streams.unsubscribe(caughtUp.subscriber, CHANNEL);
    headRead();
    await Promise.all(subscribing);
    streams.deliver(message(4));
    expect(live.frames).toEqual([]);
    expect(caughtUp.frames).toEqual([]);
  });
});
