/** WebRTC in the browser tests: the page's peer connections and their stats (issue 12). */
import { expect, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

/** Chromium with its fake microphone and camera (a beep, a test pattern), permission granted. */
export const FAKE_MEDIA_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
};

type PcWindow = Window & { __pcs?: RTCPeerConnection[] };

/** Keeps every RTCPeerConnection the page makes, so a test can read its stats. Call before loading. */
export async function watchPeerConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const pcs: RTCPeerConnection[] = [];
    (window as PcWindow).__pcs = pcs;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        pcs.push(this);
      }
    };
  });
}

export interface AudioStats {
  bytesReceived: number;
  packetsSent: number;
  /** The local candidate type of the pair in use ('host', 'srflx', 'relay'), null before one is chosen. */
  localCandidateType: string | null;
  remoteCandidateType: string | null;
}

/** Audio counters of the page's newest peer connection. */
export async function audioStats(page: Page): Promise<AudioStats> {
  return page.evaluate(async () => {
    const pc = (window as PcWindow).__pcs?.at(-1);
    const result = { bytesReceived: -1, packetsSent: -1, localCandidateType: null, remoteCandidateType: null };
    if (!pc) return result;
    type Stat = Record<string, unknown> & { type: string; id: string };
    const all = new Map<string, Stat>();
    (await pc.getStats()).forEach((s: Stat) => all.set(s.id, s));
    let bytesReceived = 0;
    let packetsSent = 0;
    let pair: Stat | undefined;
    for (const s of all.values()) {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') bytesReceived += Number(s.bytesReceived ?? 0);
      if (s.type === 'outbound-rtp' && s.kind === 'audio') packetsSent += Number(s.packetsSent ?? 0);
      if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string')
        pair = all.get(s.selectedCandidatePairId);
    }
    const type = (id: unknown) => {
      const candidate = typeof id === 'string' ? all.get(id) : undefined;
      return typeof candidate?.candidateType === 'string' ? candidate.candidateType : null;
    };
    return {
      bytesReceived,
      packetsSent,
      localCandidateType: type(pair?.localCandidateId),
      remoteCandidateType: type(pair?.remoteCandidateId),
    };
  });
}

/** Resolves once the counter has grown between two reads (audio really flows). */
export async function expectGrowing(page: Page, key: 'bytesReceived' | 'packetsSent'): Promise<void> {
  const first = (await audioStats(page))[key];
  await expect
    .poll(async () => (await audioStats(page))[key], { timeout: 10_000, message: `${key} grows` })
    .toBeGreaterThan(Math.max(first, 0));
}

type CallStatesWindow = Window & { __callStates?: string[] };

/**
 * Records every text the console's call line shows from now on, and returns a reader of them. After a
 * hang-up "Disconnected" stays 2 s, then the call panel closes: a test starved of CPU on a loaded machine
 * looked before and after those 2 s and never saw it (voice-call.spec.ts in a local CI run).
 */
export async function watchConsoleCallStates(page: Page): Promise<() => Promise<string[]>> {
  await page.getByTestId('console-call-state').evaluate((line) => {
    const seen: string[] = [];
    (window as CallStatesWindow).__callStates = seen;
    new MutationObserver(() => seen.push(line.textContent ?? '')).observe(line, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  return () => page.evaluate(() => (window as CallStatesWindow).__callStates ?? []);
}
