/**
 * What other modules need of the real-time gateway: publish a change to a channel, and ask whether a
 * user has an open socket (no socket → Web Push). The gateway (realtime.service.ts) implements it;
 * modules receive it through the composition root, so they never import the gateway itself.
 */
import type { RealtimeEvent } from '@inbound/contract';

export interface RealtimePublisher {
  /**
   * Stores the event under the channel's next sequence number (durably) and hands it to the broker,
   * which delivers it to every subscribed socket on every server process. Resolves once stored.
   */
  publish(channel: string, event: RealtimeEvent): Promise<{ seq: number }>;
  /** Whether the user has at least one authenticated socket open on any server process. */
  isUserConnected(userId: string): Promise<boolean>;
}
