/**
 * The console's one real-time connection, bound to the session: made on first use, closed at sign-out
 * (a new sign-in gets a new one, with no channel numbers of the previous user).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { ChannelKind, RealtimeEvent } from '@inbound/contract';
import {
  CONSOLE_BACKOFF,
  createRealtimeClient,
  subscribeChannel,
  type MessageListener,
  type ConnectionState,
  type RealtimeClient,
  type SubscribedInfo,
} from '@inbound/client';
import { api } from '../client';
import { getSession, subscribeSession } from '../session';

let client: RealtimeClient | null = null;

function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/realtime`;
}

export function getRealtime(): RealtimeClient {
  if (!client) {
    // The sequence numbers stay in memory: a new tab reads its board anyway.
    const created = createRealtimeClient({
      url: realtimeUrl(),
      getToken: () => getSession()?.token ?? null,
      backoff: CONSOLE_BACKOFF,
    });
    // The server closed the socket for the session (signed out elsewhere, account disabled, token
    // revoked): ask the API, whose 401 signs this screen out at once instead of at the next call.
    created.onStateChange(() => {
      if (created.state() === 'unauthorized' && getSession()) api('me').catch(() => undefined);
    });
    client = created;
  }
  return client;
}

subscribeSession(() => {
  if (!getSession() && client) {
    client.close();
    client = null;
  }
});

/** Calls the handlers for the channel's messages and each (re)subscription, while mounted. */
export function useChannel(
  channel: string | null,
  handlers: { onEvent: (event: RealtimeEvent) => void; onSubscribed?: (info: SubscribedInfo) => void },
): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!channel) return undefined;
    return getRealtime().subscribe(channel, {
      onEvent: (event) => latest.current.onEvent(event),
      onSubscribed: (info) => latest.current.onSubscribed?.(info),
    });
  }, [channel]);
}

/**
 * The channel's messages, each parsed with the contract's schema for its kind (subscribeChannel), while
 * mounted (`id` null: none). The listener may change on every render; the subscription does not.
 */
export function useChannelMessages<K extends ChannelKind>(
  kind: K,
  id: string | null,
  listener: MessageListener<K>,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (id === null) return undefined;
    return subscribeChannel(getRealtime(), kind, id, {
      onMessage: (message, seq) => latest.current.onMessage(message, seq),
      onSubscribed: (info) => latest.current.onSubscribed?.(info),
      onUnreadable: (event) => latest.current.onUnreadable?.(event),
      onError: (message) => latest.current.onError?.(message),
    });
  }, [kind, id]);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    (onChange) => getRealtime().onStateChange(onChange),
    () => getRealtime().state(),
  );
}
