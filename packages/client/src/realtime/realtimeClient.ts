/**
 * The client side of `/realtime` (packages/contract/src/realtime.ts; docs/realtime.md), one for the crew
 * app and the console.
 *
 * - One socket, opened when something subscribes and a token exists. The first frame is `auth` (the JWT
 *   never goes in the URL); channels are (re)subscribed after the server's `ready`.
 * - Every frame is parsed with the contract's `ServerFrame`; a frame that does not parse is dropped.
 * - Per channel the last sequence number seen is kept (`SeqStore`; the crew's is persisted): every
 *   (re)subscribe sends it, so the gateway replays exactly what was missed. A message at or below it is a
 *   double and is dropped; one beyond the next number is a gap: it is not delivered, and the channel is
 *   subscribed again from the last number, which replays the missing ones in order.
 * - `onSubscribed` says whether the subscription *resumed* without a hole (every message since the number
 *   sent was delivered): a listener that applies events to a cache need not read anything again then.
 *   A first subscription, or a catch-up the gateway could not complete (messages past its retention),
 *   is not resumed: the listener reads the state again.
 * - Heartbeat: a `ping` every `heartbeatMs` of the `ready` frame; if nothing at all arrives for two beats
 *   plus a margin the connection is taken as dead (half-open sockets never report a close).
 * - Lost connections come back by themselves, with exponential back-off + jitter (reconnectDelay.ts), at
 *   once when the browser says it is online again. A refused token (4401/4403) stops the retries until
 *   the token changes (`reconnect()`), instead of hammering the gateway with a dead token.
 * - `close()` (logout) closes the socket, forgets every subscription and the stored numbers.
 */
import { REALTIME_CLOSE, ServerFrame, type ClientFrame, type RealtimeEvent } from '@inbound/contract';
import { CREW_BACKOFF, RESTART_RECONNECT_MS, reconnectDelayMs, type Backoff } from './reconnectDelay';
import { createMemorySeqStore, type SeqStore } from './seqStore';

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'waiting' | 'unauthorized';

export interface SubscribedInfo {
  /** The channel's number after any catch-up. */
  seq: number;
  /** True when every message since the number this client held was delivered (nothing to read again). */
  resumed: boolean;
}

export interface ChannelListener {
  onEvent(event: RealtimeEvent, seq: number): void;
  /** The gateway refused the subscription (not this user's channel, unknown id). */
  onError?(message: string): void;
  /** The subscription is (again) live. */
  onSubscribed?(info: SubscribedInfo): void;
}

export interface RealtimeClient {
  /**
   * `fromStart`: a channel this client has not held yet is read from its first message (a call's
   * channel: the offer and candidates sent before this side subscribed).
   */
  subscribe(channel: string, listener: ChannelListener, options?: { fromStart?: boolean }): () => void;
  state(): ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  /** Connect now (a new token, the network is back): drops a pending back-off wait. */
  reconnect(): void;
  /** Logout: close, forget subscriptions and stored sequence numbers. */
  close(): void;
}

/** The subset of the browser WebSocket the client uses (tests pass a fake). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface RealtimeClientOptions {
  url: string | (() => string);
  getToken: () => string | null;
  /** Default: in memory (the console: a new tab reads its board anyway). */
  seqStore?: SeqStore;
  backoff?: Backoff;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
  now?: () => number;
  /** Until `ready` arrives; a gateway that never answers the auth frame counts as a lost connection. */
  authTimeoutMs?: number;
  /** Where `online` events come from (default: `window` when there is one). */
  onlineEvents?: Pick<Window, 'addEventListener'> | null;
}

const OPEN = 1;
const DEFAULT_AUTH_TIMEOUT_MS = 10_000;
/** Beyond two missed heartbeats: allowance for a slow cellular round trip. */
export const HEARTBEAT_MARGIN_MS = 5_000;

interface ChannelEntry {
  listeners: Set<ChannelListener>;
  /** A subscribe frame is out and its `subscribed` answer not yet in: gaps are not re-requested meanwhile. */
  pending: boolean;
  /** The subscribe out carried a number (a resume). */
  resuming: boolean;
  /** During the catch-up a message came beyond the next number: the gateway no longer has what is between. */
  hole: boolean;
  refused: boolean;
}

export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const backoff = options.backoff ?? CREW_BACKOFF;
  const authTimeoutMs = options.authTimeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS;
  const seqStore = options.seqStore ?? createMemorySeqStore();
  const url = typeof options.url === 'string' ? () => options.url as string : options.url;

  const channels = new Map<string, ChannelEntry>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let socket: SocketLike | null = null;
  let current: ConnectionState = 'idle';
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let authTimer: ReturnType<typeof setTimeout> | null = null;
  let heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  let lastFrameAt = 0;

  const setState = (next: ConnectionState) => {
    if (next === current) return;
    current = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const send = (frame: ClientFrame) => {
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(frame));
  };

  const sendSubscribe = (channel: string, entry: ChannelEntry) => {
    if (current !== 'open') return;
    entry.pending = true;
    entry.hole = false;
    const lastSeq = seqStore.get(channel);
    entry.resuming = lastSeq !== undefined;
    send(lastSeq === undefined ? { type: 'subscribe', channel } : { type: 'subscribe', channel, lastSeq });
  };

  const clearTimers = () => {
    if (authTimer) clearTimeout(authTimer);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    authTimer = null;
    heartbeatTimer = null;
  };

  const dropSocket = () => {
    clearTimers();
    if (!socket) return;
    const old = socket;
    socket = null;
    old.onopen = old.onmessage = old.onclose = old.onerror = null;
    try {
      old.close();
    } catch {
      // Already closing.
    }
  };

  /** `serverRestart`: the server closed with "restart" (it is draining) — another process takes us. */
  const scheduleReconnect = (serverRestart = false) => {
    dropSocket();
    for (const entry of channels.values()) entry.pending = false;
    if (channels.size === 0) {
      setState('idle');
      return;
    }
    const delay =
      serverRestart && failures === 0
        ? Math.round(random() * RESTART_RECONNECT_MS)
        : reconnectDelayMs(failures + 1, random(), backoff);
    failures += 1;
    setState('waiting');
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  };

  const handleFrame = (raw: unknown) => {
    lastFrameAt = now();
    let json: unknown;
    try {
      json = JSON.parse(String(raw));
    } catch {
      return;
    }
    const parsed = ServerFrame.safeParse(json);
    if (!parsed.success) return;
    const frame = parsed.data;
    switch (frame.type) {
      case 'ready': {
        if (authTimer) clearTimeout(authTimer);
        authTimer = null;
        failures = 0;
        setState('open');
        startHeartbeat(frame.heartbeatMs);
        for (const [channel, entry] of channels) if (!entry.refused) sendSubscribe(channel, entry);
        return;
      }
      case 'subscribed': {
        const entry = channels.get(frame.channel);
        if (!entry) return;
        entry.pending = false;
        const last = seqStore.get(frame.channel);
        // Short of the channel's number after the catch-up: what is between is gone from the gateway (the
        // listener reads the state again). Beyond it: the server's numbering started again; ours is stale.
        const complete = last !== undefined && last === frame.seq;
        if (!complete) seqStore.set(frame.channel, frame.seq);
        const info: SubscribedInfo = { seq: frame.seq, resumed: entry.resuming && complete && !entry.hole };
        entry.hole = false;
        for (const listener of [...entry.listeners]) listener.onSubscribed?.(info);
        return;
      }
      case 'message': {
        const entry = channels.get(frame.channel);
        if (!entry) return;
        const last = seqStore.get(frame.channel);
        if (last !== undefined && frame.seq <= last) return;
        if (last !== undefined && frame.seq > last + 1) {
          if (entry.pending) entry.hole = true;
          else sendSubscribe(frame.channel, entry);
          return;
        }
        seqStore.set(frame.channel, frame.seq);
        for (const listener of [...entry.listeners]) listener.onEvent(frame.event, frame.seq);
        return;
      }
      case 'error': {
        if (!frame.channel) return;
        const entry = channels.get(frame.channel);
        if (!entry) return;
        entry.pending = false;
        entry.refused = true;
        for (const listener of [...entry.listeners]) listener.onError?.(frame.message);
        return;
      }
      case 'pong':
        return;
    }
  };

  const startHeartbeat = (heartbeatMs: number) => {
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    heartbeatTimer = setInterval(() => {
      if (now() - lastFrameAt > 2 * heartbeatMs + HEARTBEAT_MARGIN_MS) {
        scheduleReconnect();
        return;
      }
      send({ type: 'ping' });
    }, heartbeatMs);
  };

  function open(): void {
    if (socket || channels.size === 0) return;
    const token = options.getToken();
    if (!token) {
      setState('idle');
      return;
    }
    setState('connecting');
    let created: SocketLike;
    try {
      created = createSocket(url());
    } catch {
      scheduleReconnect();
      return;
    }
    socket = created;
    created.onopen = () => {
      lastFrameAt = now();
      send({ type: 'auth', token });
      authTimer = setTimeout(() => scheduleReconnect(), authTimeoutMs);
    };
    created.onmessage = (event) => handleFrame(event.data);
    created.onerror = () => {
      // A close event follows; it decides.
    };
    created.onclose = (event) => {
      if (socket !== created) return;
      if (event.code === REALTIME_CLOSE.unauthorized || event.code === REALTIME_CLOSE.revoked) {
        dropSocket();
        for (const entry of channels.values()) entry.pending = false;
        setState('unauthorized');
        return;
      }
      scheduleReconnect(event.code === REALTIME_CLOSE.restart);
    };
  }

  const reconnectNow = () => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (current === 'open' || current === 'connecting') return;
    dropSocket();
    open();
  };

  const onlineEvents = options.onlineEvents !== undefined ? options.onlineEvents : globalWindow();
  onlineEvents?.addEventListener('online', reconnectNow);

  return {
    subscribe(channel, listener, options) {
      let entry = channels.get(channel);
      if (!entry) {
        if (options?.fromStart && seqStore.get(channel) === undefined) seqStore.set(channel, 0);
        entry = { listeners: new Set(), pending: false, resuming: false, hole: false, refused: false };
        channels.set(channel, entry);
        entry.listeners.add(listener);
        if (socket) sendSubscribe(channel, entry);
        else if (current !== 'waiting' && current !== 'unauthorized') open();
      } else {
        entry.listeners.add(listener);
      }
      const subscribed = entry;
      return () => {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size > 0 || channels.get(channel) !== subscribed) return;
        channels.delete(channel);
        send({ type: 'unsubscribe', channel });
      };
    },
    state: () => current,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    reconnect() {
      failures = 0;
      for (const entry of channels.values()) entry.refused = false;
      if (current === 'unauthorized') setState('idle');
      reconnectNow();
    },
    close() {
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      channels.clear();
      dropSocket();
      seqStore.clear();
      failures = 0;
      setState('idle');
    },
  };
}

function globalWindow(): Pick<Window, 'addEventListener'> | null {
  return typeof window === 'undefined' ? null : window;
}
