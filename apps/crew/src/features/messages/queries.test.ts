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

describe('Message Center live broadcasts', () => {
  it('adds a new broadcast, and replaces a known one sent again (a dispatch the hospital cancelled)', async () => {
    const { QueryClient } = await import('@tanstack/react-query');
    const { addBroadcast, broadcastKeys } = await import('./queries');
    const queryClient = new QueryClient();
    const dispatch = {
      _id: 'b1',
      timestamp: '2026-11-25T12:00:00.000Z',
      content: 'Case QW-5238: fall at home',
      urgent: false,
      type: 'emsDispatch' as const,
      caseNumber: 'QW-5238',
      senderOrganizationName: 'Riverside Regional Medical Center',
      emsAgencies: ['agency-riverside-ems'],
    };
    addBroadcast(queryClient, { type: 'broadcast.message', data: dispatch });
    addBroadcast(queryClient, { type: 'broadcast.message', data: dispatch });
    expect(queryClient.getQueryData<unknown[]>(broadcastKeys.all)).toHaveLength(1);
    addBroadcast(queryClient, {
      type: 'broadcast.message',
      data: { ...dispatch, cancelledAt: '2026-11-25T12:05:00.000Z' },
    });
    const list = queryClient.getQueryData<{ cancelledAt?: string | null }[]>(broadcastKeys.all) ?? [];
    expect(list.map((m) => m.cancelledAt)).toEqual(['2026-11-25T12:05:00.000Z']);
  });
});
