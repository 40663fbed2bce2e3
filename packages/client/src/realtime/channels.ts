/**
 * Typed subscriptions: a channel of kind K delivers `ChannelMessage<K>` (packages/contract
 * realtime-messages.ts), each message parsed with the contract's schema for that kind — no app casts a
 * real-time payload. A message this client cannot read (a newer server's kind, a broken one) is not
 * dropped silently: `onUnreadable` lets the listener read the state again, as it would after a hole.
 */
import {
  channelName,
  parseChannelMessage,
  type ChannelKind,
  type ChannelMessage,
  type RealtimeEvent,
} from '@inbound/contract';
import type { RealtimeClient, SubscribedInfo } from './realtimeClient';

export interface MessageListener<K extends ChannelKind> {
  onMessage(message: ChannelMessage<K>, seq: number): void;
  /** The subscription is (again) live; `resumed`: nothing was missed since the last message seen. */
  onSubscribed?(info: SubscribedInfo): void;
  /** A message that is not one of the kind's messages. */
  onUnreadable?(event: RealtimeEvent): void;
  /** The gateway refused the subscription. */
  onError?(message: string): void;
}

export function subscribeChannel<K extends ChannelKind>(
  client: RealtimeClient,
  kind: K,
  id: string,
  listener: MessageListener<K>,
  options?: { fromStart?: boolean },
): () => void {
  return client.subscribe(
    channelName(kind, id),
    {
      onEvent(event, seq) {
        const message = parseChannelMessage(kind, event);
        if (message === null) listener.onUnreadable?.(event);
        else listener.onMessage(message, seq);
      },
      onSubscribed: (info) => listener.onSubscribed?.(info),
      onError: (message) => listener.onError?.(message),
    },
    options,
  );
}
