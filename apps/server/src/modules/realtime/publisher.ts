/**
 * What other modules need of the real-time gateway: publish a change to a channel, have a channel's
 * subscribers checked again when access to it changed, and ask whether a user has an open socket (no
 * socket → Web Push). The gateway (realtime.service.ts) implements it; modules receive it through the
 * composition root, so they never import the gateway itself.
 */
import type { RealtimeEvent } from '@inbound/contract';

export interface RealtimePublisher {
  /**
   * Stores the event under the channel's next sequence number (durably) and hands it to the broker,
   * which delivers it to every subscribed socket on every server process. Resolves once stored.
   */
  publish(channel: string, event: RealtimeEvent): Promise<{ seq: number }>;
  /**
   * `publish` for a message that may be published again (an outbox relay, at least once): the first
   * call stores it under the channel's next number, a later one with the same `dedupeKey` finds that
   * number. Either way the message is handed out again; subscribers already past that number drop it.
   */
  publishOnce(channel: string, event: RealtimeEvent, dedupeKey: string): Promise<{ seq: number }>;
  /**
   * Access to the channel changed (after commit): every server process checks its sockets subscribed to
   * it again with the channel's authorizer and ends the subscriptions now refused, with an `error` frame
   * for the channel. Call it before publishing the change, so the message cannot outrun the check.
   * Resolves once this process's sockets are checked and the request is handed to the broker.
   */
  reauthorize(channel: string): Promise<void>;
  /** Whether the user has at least one authenticated socket open on any server process. */
  isUserConnected(userId: string): Promise<boolean>;
}
