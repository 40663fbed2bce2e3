/**
 * The console's side of `/realtime` (packages/contract/src/realtime.ts).
 *
 * - One socket, opened when the first channel is subscribed. The first frame is `auth` with the JWT
 *   (never in the URL); channels are subscribed after the server's `ready`.
 * - Per channel the last sequence number seen is kept in memory and sent on every re-subscribe, so the
 *   gateway replays what was missed while the socket was down; a number at or below it is a double
 *   and is dropped. `onSubscribed` fires on every (re)subscription: the board refetches then, which
 *   also covers anything older than the gateway's retention.
 * - Heartbeat: a `ping` every `heartbeatMs`; silence for two beats plus a margin means the connection
 *   is dead (half-open sockets never report a close) and it is replaced.
 * - Reconnects with back-off + jitter; a refused token (4401/4403) stops retrying (the session is over).
 */
import { REALTIME_CLOSE, ServerFrame, type ClientFrame, type RealtimeEvent } from '@inbound/contract';
import { RESTART_RECONNECT_MS, reconnectDelayMs } from './reconnectDelay';

export type ConnectionState = 'connecting' | 'live' | 'offline' | 'unauthorized';

export interface ChannelListener {
  onEvent(event: RealtimeEvent): void;
  onSubscribed?(): void;
}

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface RealtimeClientOptions {
  url: string;
  getToken: () => string | null;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
}

export interface RealtimeClient {
  subscribe(channel: string, listener: ChannelListener): () => void;
  state(): ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

const OPEN = 1;
const DEAD_MARGIN_MS = 2_000;

export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const random = options.random ?? Math.random;
  const listeners = new Map<string, Set<ChannelListener>>();
  const lastSeq = new Map<string, number>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let socket: SocketLike | null = null;
  let ready = false;
  let current: ConnectionState = 'offline';
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let beatTimer: ReturnType<typeof setInterval> | null = null;
  let lastHeard = 0;
  let closed = false;

  const setState = (next: ConnectionState) => {
    if (next === current) return;
    current = next;
    stateListeners.forEach((l) => l(next));
  };
  const send = (frame: ClientFrame) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(frame));
  };
  const subscribeFrame = (channel: string) => {
    const seq = lastSeq.get(channel);
    send(seq === undefined ? { type: 'subscribe', channel } : { type: 'subscribe', channel, lastSeq: seq });
  };

  function stopTimers() {
    if (beatTimer) clearInterval(beatTimer);
    beatTimer = null;
  }

  function connect() {
    retryTimer = null;
    if (closed || socket || listeners.size === 0) return;
    const token = options.getToken();
    if (!token) return setState('unauthorized');
    setState('connecting');
    const s = createSocket(options.url);
    socket = s;
    ready = false;
    s.onopen = () => send({ type: 'auth', token });
    s.onmessage = (message) => {
      lastHeard = Date.now();
      let frame: ServerFrame;
      try {
        frame = ServerFrame.parse(JSON.parse(String(message.data)));
      } catch {
        return; // a frame we cannot read is not worth dropping the connection for
      }
      handle(frame);
    };
    s.onerror = () => undefined; // onclose follows and decides
    s.onclose = (event) => {
      if (socket !== s) return;
      socket = null;
      ready = false;
      stopTimers();
      if (closed) return;
      if (event.code === REALTIME_CLOSE.unauthorized || event.code === REALTIME_CLOSE.revoked) {
        return setState('unauthorized');
      }
      setState('offline');
      const delay =
        event.code === REALTIME_CLOSE.restart && failures === 0
          ? Math.round(random() * RESTART_RECONNECT_MS)
          : reconnectDelayMs(failures + 1, random());
      failures += 1;
      retryTimer = setTimeout(connect, delay);
    };
  }

  function handle(frame: ServerFrame) {
    switch (frame.type) {
      case 'ready': {
        ready = true;
        failures = 0;
        setState('live');
        lastHeard = Date.now();
        stopTimers();
        beatTimer = setInterval(() => {
          if (Date.now() - lastHeard > frame.heartbeatMs * 2 + DEAD_MARGIN_MS) {
            // Dead without a close: drop it; onclose schedules the reconnect.
            socket?.close();
            return;
          }
          send({ type: 'ping' });
        }, frame.heartbeatMs);
        for (const channel of listeners.keys()) subscribeFrame(channel);
        return;
      }
      case 'subscribed':
        if ((lastSeq.get(frame.channel) ?? 0) < frame.seq) lastSeq.set(frame.channel, frame.seq);
        listeners.get(frame.channel)?.forEach((l) => l.onSubscribed?.());
        return;
      case 'message': {
        const seen = lastSeq.get(frame.channel);
        if (seen !== undefined && frame.seq <= seen) return;
        lastSeq.set(frame.channel, frame.seq);
        listeners.get(frame.channel)?.forEach((l) => l.onEvent(frame.event));
        return;
      }
      default:
        return;
    }
  }

  return {
    subscribe(channel, listener) {
      let set = listeners.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      if (!socket && !retryTimer) connect();
      else if (isNew && ready) subscribeFrame(channel);
      return () => {
        const entry = listeners.get(channel);
        entry?.delete(listener);
        if (entry && entry.size === 0) {
          listeners.delete(channel);
          if (ready) send({ type: 'unsubscribe', channel });
        }
      };
    },
    state: () => current,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      stopTimers();
      socket?.close(1000);
      socket = null;
      listeners.clear();
      lastSeq.clear();
    },
  };
}
