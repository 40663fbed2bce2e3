import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_CLOSE, type RealtimeEvent } from '@inbound/contract';
import { FakeWebSocket as FakeSocket } from './fakeWebSocket';
import { createRealtimeClient, type RealtimeClient } from './realtimeClient';
import { CREW_BACKOFF, RESTART_RECONNECT_MS, reconnectDelayMs } from './reconnectDelay';
import { createMemorySeqStore, type SeqStore } from './seqStore';

let sockets: FakeSocket[];
let seqStore: SeqStore;
let token: string | null;
let client: RealtimeClient;

function make(random = () => 0.5) {
  client = createRealtimeClient({
    url: () => 'ws://test/realtime',
    getToken: () => token,
    seqStore,
    random,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  return client;
}

const last = () => sockets[sockets.length - 1]!;

function collect(channel: string) {
  const seen: Array<{ seq: number; event: RealtimeEvent }> = [];
  const unsubscribe = client.subscribe(channel, { onEvent: (event, seq) => seen.push({ seq, event }) });
  return { seen, seqs: () => seen.map((item) => item.seq), unsubscribe };
}

function connect() {
  last().accept();
  last().ready();
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  seqStore = createMemorySeqStore();
  token = 'jwt-1';
  make();
});
afterEach(() => {
  client.close();
  vi.useRealTimers();
});

describe('realtime client', () => {
  it('authenticates first, then subscribes after ready; opens nothing without a subscriber or a token', () => {
    expect(sockets).toHaveLength(0);
    collect('case:c1');
    expect(sockets).toHaveLength(1);
    last().accept();
    expect(last().sent).toEqual([{ type: 'auth', token: 'jwt-1' }]);
    last().ready();
    expect(client.state()).toBe('open');
    expect(last().sent[1]).toEqual({ type: 'subscribe', channel: 'case:c1' });

    client.close();
    token = null;
    collect('case:c2');
    expect(sockets).toHaveLength(1);
    expect(client.state()).toBe('idle');
  });

  it('delivers in order, drops doubles, and re-requests from the last number on a gap', () => {
    const chat = collect('case:c1');
    connect();
    last().frame({ type: 'subscribed', channel: 'case:c1', seq: 4 });
    last().message('case:c1', 5);
    last().message('case:c1', 5); // double
    last().message('case:c1', 4); // old
    last().message('case:c1', 8); // gap: 6 and 7 missing
    expect(chat.seqs()).toEqual([5]);
    expect(last().subscribes().at(-1)).toEqual({ type: 'subscribe', channel: 'case:c1', lastSeq: 5 });
    last().message('case:c1', 9); // still missing 6: not delivered, no second subscribe while pending
    expect(last().subscribes()).toHaveLength(2);
    // the gateway replays 6..9, then confirms
    for (const seq of [6, 7, 8, 9]) last().message('case:c1', seq);
    last().frame({ type: 'subscribed', channel: 'case:c1', seq: 9 });
    last().message('case:c1', 10);
    expect(chat.seqs()).toEqual([5, 6, 7, 8, 9, 10]);
    expect(seqStore.get('case:c1')).toBe(10);
  });

  it('says whether a subscription resumed without a hole; a catch-up past the retention is not re-requested', () => {
    const infos: Array<{ seq: number; resumed: boolean }> = [];
    const seen: number[] = [];
    client.subscribe('case:c1', { onEvent: (_event, seq) => seen.push(seq), onSubscribed: (info) => infos.push(info) });
    connect();
    last().frame({ type: 'subscribed', channel: 'case:c1', seq: 4 });
    last().message('case:c1', 5);
    last().drop();
    vi.advanceTimersByTime(CREW_BACKOFF.capMs);
    connect();
    last().message('case:c1', 6);
    last().frame({ type: 'subscribed', channel: 'case:c1', seq: 6 });
    last().drop();
    vi.advanceTimersByTime(CREW_BACKOFF.capMs);
    connect();
    // 7 and 8 are past the gateway's retention: the catch-up starts at 9.
    last().message('case:c1', 9);
    last().frame({ type: 'subscribed', channel: 'case:c1', seq: 9 });
    last().message('case:c1', 10);
    expect(infos).toEqual([
      { seq: 4, resumed: false },
      { seq: 6, resumed: true },
      { seq: 9, resumed: false },
    ]);
    expect(seen).toEqual([5, 6, 10]);
    expect(last().subscribes()).toHaveLength(1);
  });

  it('resubscribes every channel with its last number after a reconnect, and survives a reload through the store', () => {
    const a = collect('case:c1');
    collect('broadcast:a1');
    connect();
    last().message('case:c1', 1);
    last().message('case:c1', 2);
    last().frame({ type: 'subscribed', channel: 'broadcast:a1', seq: 30 });
    last().drop();
    expect(client.state()).toBe('waiting');
    vi.advanceTimersByTime(CREW_BACKOFF.capMs);
    expect(sockets).toHaveLength(2);
    connect();
    expect(last().subscribes()).toEqual([
      { type: 'subscribe', channel: 'case:c1', lastSeq: 2 },
      { type: 'subscribe', channel: 'broadcast:a1', lastSeq: 30 },
    ]);
    last().message('case:c1', 3);
    expect(a.seqs()).toEqual([1, 2, 3]);

    // A "reload": a new client on the same store resumes from 3.
    client.close = () => undefined; // keep the store for the new client
    make();
    collect('case:c1');
    connect();
    expect(last().subscribes()).toEqual([{ type: 'subscribe', channel: 'case:c1', lastSeq: 3 }]);
  });

  it('backs off exponentially with jitter, capped, and resets after a good connection', () => {
    expect(reconnectDelayMs(1, 0)).toBe(500);
    expect(reconnectDelayMs(1, 0.999)).toBe(1_000);
    expect(reconnectDelayMs(3, 0)).toBe(2_000);
    expect(reconnectDelayMs(20, 0.999)).toBeLessThanOrEqual(CREW_BACKOFF.capMs);
    expect(reconnectDelayMs(20, 0.999)).toBeGreaterThan(CREW_BACKOFF.capMs - 20);
    expect(reconnectDelayMs(20, 0)).toBe(CREW_BACKOFF.capMs / 2);

    make(() => 0); // the fixed half only: 500, 1000, 2000, ...
    collect('case:c1');
    last().drop();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const before = sockets.length;
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
      last().drop();
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000]);
    vi.advanceTimersByTime(8_000);
    connect(); // good again: the next loss waits the first step
    last().drop();
    vi.advanceTimersByTime(499);
    const count = sockets.length;
    vi.advanceTimersByTime(1);
    expect(sockets.length).toBe(count + 1);
  });

  it('comes back within RESTART_RECONNECT_MS after a "restart" close (a draining server) and resumes', () => {
    const a = collect('case:c1');
    connect();
    last().message('case:c1', 4);
    last().drop(REALTIME_CLOSE.restart);
    vi.advanceTimersByTime(RESTART_RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    connect();
    expect(last().subscribes()).toEqual([{ type: 'subscribe', channel: 'case:c1', lastSeq: 4 }]);
    expect(a.seqs()).toEqual([4]);
    // A restart close on a link that is already failing backs off as any loss does.
    last().drop(1006);
    vi.advanceTimersByTime(reconnectDelayMs(1, 0.5));
    expect(sockets).toHaveLength(3);
    last().drop(REALTIME_CLOSE.restart);
    vi.advanceTimersByTime(RESTART_RECONNECT_MS);
    expect(sockets).toHaveLength(3);
  });

  it('pings per the ready frame and takes a silent connection as dead', () => {
    collect('case:c1');
    last().accept();
    last().ready(1_000);
    vi.advanceTimersByTime(1_000);
    expect(last().sent.filter((frame) => frame.type === 'ping')).toHaveLength(1);
    last().frame({ type: 'pong' });
    vi.advanceTimersByTime(7_000);
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(1_000); // nothing for more than 2 beats + the 5 s margin
    expect(last().closed).toBe(true);
    expect(client.state()).toBe('waiting');
  });

  it('stops retrying on a refused token until the token changes', () => {
    collect('case:c1');
    connect();
    last().drop(4401);
    expect(client.state()).toBe('unauthorized');
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
    token = 'jwt-2';
    client.reconnect();
    expect(sockets).toHaveLength(2);
    last().accept();
    expect(last().sent[0]).toEqual({ type: 'auth', token: 'jwt-2' });
  });

  it('reports a refused subscription and unsubscribes when the last listener leaves', () => {
    const errors: string[] = [];
    const stop = client.subscribe('case:other', {
      onEvent: () => undefined,
      onError: (message) => errors.push(message),
    });
    connect();
    last().frame({ type: 'error', channel: 'case:other', message: 'You do not have access to this resource.' });
    expect(errors).toEqual(['You do not have access to this resource.']);
    stop();
    expect(last().sent.at(-1)).toEqual({ type: 'unsubscribe', channel: 'case:other' });
  });

  it('close() forgets subscriptions and stored numbers (logout)', () => {
    collect('case:c1');
    connect();
    last().message('case:c1', 1);
    client.close();
    expect(last().closed).toBe(true);
    expect(seqStore.get('case:c1')).toBeUndefined();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});
