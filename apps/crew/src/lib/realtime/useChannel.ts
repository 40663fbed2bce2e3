import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { RealtimeEvent } from '@inbound/contract';
import { realtime, type ConnectionState, type RealtimeClient } from './index';

/**
 * Listens to one channel while the component is mounted (`null`: none). `onEvent` may change on every
 * render; the subscription does not.
 */
export function useChannel(
  channel: string | null,
  onEvent: (event: RealtimeEvent, seq: number) => void,
  client: RealtimeClient = realtime,
): void {
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => {
    if (!channel) return;
    return client.subscribe(channel, { onEvent: (event, seq) => latest.current(event, seq) });
  }, [channel, client]);
}

/** The connection's state, e.g. to poll as a fallback only while it is not `open`. */
export function useRealtimeState(client: RealtimeClient = realtime): ConnectionState {
  return useSyncExternalStore(client.onStateChange, client.state, client.state);
}
