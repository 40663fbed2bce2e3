/**
 * Publishing a channel's message as the contract describes it (`CHANNEL_MESSAGES`): the message is
 * checked with the channel kind's schema before it is stored, so what a client parses is what the
 * server promised.
 */
import { CHANNEL_MESSAGES, channelName, type ChannelKind, type ChannelMessage } from '@inbound/contract';
import type { RealtimePublisher } from './publisher.js';

export function publishMessage<K extends ChannelKind>(
  publisher: RealtimePublisher,
  kind: K,
  id: string,
  message: ChannelMessage<K>,
  /** For a message that may be published again (an outbox): its key, unique on the channel. */
  dedupeKey?: string,
): Promise<{ seq: number }> {
  const checked = CHANNEL_MESSAGES[kind].parse(message);
  const channel = channelName(kind, id);
  return dedupeKey === undefined
    ? publisher.publish(channel, checked)
    : publisher.publishOnce(channel, checked, dedupeKey);
}
