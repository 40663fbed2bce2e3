import { describe, expect, it } from 'vitest';
import { callQualityText, callTimer, meshPeerText } from './callDisplay';
import type { CallQuality } from './callPeer';

const stats = { bytesReceived: 0, packetsSent: 0 };

describe('call display', () => {
  it('shows a connected call as mm:ss, never negative', () => {
    expect(callTimer(0)).toBe('00:00');
    expect(callTimer(95_400)).toBe('01:35');
    expect(callTimer(-500)).toBe('00:00');
  });

  it('says the link quality in words, with dashes for what the stats do not know yet', () => {
    expect(callQualityText({ ...stats, rttMs: 42, lossPercent: 0, relayed: true } satisfies CallQuality)).toBe(
      'RTT 42 ms · loss 0 % · via relay',
    );
    expect(callQualityText({ ...stats, rttMs: null, lossPercent: null, relayed: false } satisfies CallQuality)).toBe(
      'RTT — · loss —',
    );
  });

  it("words a consult tile's link: its state until connected, then its quality, and our video's step", () => {
    const quality = { ...stats, rttMs: 42, lossPercent: 1, relayed: false } satisfies CallQuality;
    expect(meshPeerText({ state: 'connecting', quality: null, videoStep: 0 })).toBe('Connecting...');
    expect(meshPeerText({ state: 'connected', quality: null, videoStep: 0 })).toBe('');
    expect(meshPeerText({ state: 'connected', quality, videoStep: 0 })).toBe('RTT 42 ms · loss 1 %');
    expect(meshPeerText({ state: 'connected', quality, videoStep: 3 })).toBe(
      'RTT 42 ms · loss 1 % · our video paused (audio kept)',
    );
    expect(meshPeerText({ state: 'reconnecting', quality, videoStep: 1 })).toBe('Reconnecting… · our video reduced');
  });
});
