import { describe, expect, it } from 'vitest';
import { BROADCAST_FALLBACK_POLL_MS, broadcastPollInterval } from './queries';

describe('Message Center refresh', () => {
  it('polls every 60 s only while the socket is not open', () => {
    expect(BROADCAST_FALLBACK_POLL_MS).toBe(60_000);
    expect(broadcastPollInterval('open')).toBe(false);
    for (const state of ['idle', 'connecting', 'waiting', 'unauthorized'] as const) {
      expect(broadcastPollInterval(state)).toBe(60_000);
    }
  });
});
