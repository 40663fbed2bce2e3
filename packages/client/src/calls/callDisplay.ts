/** What both apps show of a call: its timer and its connection quality (spec §3 "Call state"). */
import type { CallQuality } from './callPeer';

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
