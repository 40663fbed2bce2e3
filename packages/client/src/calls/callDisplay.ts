/** What both apps show of a call: its timer and its connection quality (spec §3 "Call state"). */
import { callMessages } from '@inbound/contract';
import type { CallQuality } from './callPeer';
import type { MeshPeer } from './consultMesh';

/** How often a connected call's quality is read from WebRTC stats. */
export const CALL_QUALITY_EVERY_MS = 2_000;

/** A connected call's duration as mm:ss. */
export function callTimer(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** "RTT 42 ms · loss 0 % · via relay": what the crew and the ED see of the link. */
export function callQualityText(quality: CallQuality): string {
  const rtt = quality.rttMs !== null ? `RTT ${quality.rttMs} ms` : 'RTT —';
  const loss = quality.lossPercent !== null ? `${quality.lossPercent} %` : '—';
  return `${rtt} · loss ${loss}${quality.relayed ? ' · via relay' : ''}`;
}

/** What each video step means for our video to one participant (videoSteps.ts: 0 full … 3 paused). */
const VIDEO_STEP_TEXT = ['', 'our video reduced', 'our video low', 'our video paused (audio kept)'];

/** A consult tile's line: the link's quality once connected (else its state), and our video's step. */
export function meshPeerText(peer: Pick<MeshPeer, 'state' | 'quality' | 'videoStep'>): string {
  const state =
    peer.state === 'connected'
      ? peer.quality
        ? callQualityText(peer.quality)
        : ''
      : peer.state === 'reconnecting'
        ? 'Reconnecting…'
        : callMessages.connecting;
  return peer.videoStep > 0 ? `${state} · ${VIDEO_STEP_TEXT[peer.videoStep]}` : state;
}
