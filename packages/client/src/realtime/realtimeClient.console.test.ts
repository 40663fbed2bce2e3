import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_CLOSE, type ClientFrame } from '@inbound/contract';
import { createRealtimeClient, type SocketLike } from './realtimeClient';
import { CONSOLE_BACKOFF, RESTART_RECONNECT_MS, reconnectDelayMs } from './reconnectDelay';
import { HEARTBEAT_MARGIN_MS } from './realtimeClient';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: ClientFrame[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

// The console's use of the shared client: its back-off, an in-memory sequence store, no online events.
describe('realtime client, as the console uses it', () => {
  let sockets: FakeSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
  });
  afterEach(() => vi.useRealTimers());

  const make = (token: string | null = 'jwt') =>
    createRealtimeClient({
      url: 'ws://x/realtime',
      getToken: () => token,
      random: () => 0,
      backoff: CONSOLE_BACKOFF,
      onlineEvents: null,
      createSocket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
    });

  it('authenticates first, subscribes after ready, delivers messages once and in order', () => {
    const client = make();
    const events: unknown[] = [];
    const subscribed = vi.fn();
    client.subscribe('hospital:h1', { onEvent: (e) => events.push(e.data), onSubscribed: subscribed });
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([{ type: 'auth', token: 'jwt' }]);
    s.receive({ type: 'ready', userId: 'u', heartbeatMs: 10_000 });
    expect(client.state()).toBe('open');
    expect(s.sent[1]).toEqual({ type: 'subscribe', channel: 'hospital:h1' });
    s.receive({ type: 'subscribed', channel: 'hospital:h1', seq: 4 });
    expect(subscribed).toHaveBeenCalledOnce();
    s.receive({ type: 'message', channel: 'hospital:h1', seq: 5, event: { type: 'case.updated', data: 'a' } });
    s.receive({ type: 'message', channel: 'hospital:h1', seq: 5, event: { type: 'case.updated', data: 'a' } });
    s.receive({ type: 'message', channel: 'hospital:h1', seq: 6, event: { type: 'case.updated', data: 'b' } });
    expect(events).toEqual(['a', 'b']);
  });

  it('reconnects with back-off and resubscribes from the last number seen', () => {
    const client = make();
    client.subscribe('hospital:h1', { onEvent: () => undefined });
    const first = sockets[0]!;
    first.open();
    first.receive({ type: 'ready', userId: 'u', heartbeatMs: 10_000 });
    first.receive({ type: 'message', channel: 'hospital:h1', seq: 9, event: { type: 'case.updated', data: null } });
    first.close(1006);
    expect(client.state()).toBe('waiting');
    vi.advanceTimersByTime(reconnectDelayMs(1, 0, CONSOLE_BACKOFF) - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = sockets[1]!;
    second.open();
    second.receive({ type: 'ready', userId: 'u', heartbeatMs: 10_000 });
    expect(second.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'hospital:h1', lastSeq: 9 });
  });

  it('comes back within RESTART_RECONNECT_MS after a "restart" close (a draining server)', () => {
    const client = make();
    client.subscribe('hospital:h1', { onEvent: () => undefined });
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'ready', userId: 'u', heartbeatMs: 10_000 });
    sockets[0]!.receive({
      type: 'message',
      channel: 'hospital:h1',
      seq: 3,
      event: { type: 'case.updated', data: null },
    });
    sockets[0]!.close(REALTIME_CLOSE.restart);
    vi.advanceTimersByTime(RESTART_RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    sockets[1]!.receive({ type: 'ready', userId: 'u', heartbeatMs: 10_000 });
    expect(sockets[1]!.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'hospital:h1', lastSeq: 3 });
  });

  it('takes a silent connection for dead and replaces it', () => {
    const client = make();
    client.subscribe('hospital:h1', { onEvent: () => undefined });
    const s = sockets[0]!;
    s.open();
    s.receive({ type: 'ready', userId: 'u', heartbeatMs: 1_000 });
    vi.advanceTimersByTime(1_000);
    expect(s.sent.at(-1)).toEqual({ type: 'ping' });
    // Silence for two beats plus the margin, counted from the last frame heard (the ready frame).
    vi.advanceTimersByTime(2 * 1_000 + HEARTBEAT_MARGIN_MS);
    expect(client.state()).toBe('waiting');
    vi.advanceTimersByTime(reconnectDelayMs(1, 0, CONSOLE_BACKOFF));
    expect(sockets).toHaveLength(2);
  });

  it('stops retrying when the gateway refuses the token', () => {
    const client = make();
    client.subscribe('hospital:h1', { onEvent: () => undefined });
    sockets[0]!.open();
    sockets[0]!.close(REALTIME_CLOSE.unauthorized);
    expect(client.state()).toBe('unauthorized');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('grows the back-off and caps it', () => {
    expect(reconnectDelayMs(1, 0, CONSOLE_BACKOFF)).toBe(250);
    expect(reconnectDelayMs(3, 1, CONSOLE_BACKOFF)).toBe(2_000);
    expect(reconnectDelayMs(20, 1, CONSOLE_BACKOFF)).toBe(15_000);
  });
});
