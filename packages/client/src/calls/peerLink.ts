/**
 * One WebRTC connection to one other browser, whatever carries its signals (issue 12): the voice call
 * (callPeer.ts, over `call:{id}`) and each pair of a live consult's mesh (consultMesh.ts, over
 * `consult:{id}`) are built on it.
 *
 * - Outgoing signals go in order through `send`; candidates in small batches (one request per burst).
 * - The offerer offers first and, when a connected path drops (Wi-Fi ↔ LTE, a tunnel), restarts ICE at
 *   once and every few seconds; when nothing connects within LOST_AFTER_MS the link is lost.
 * - `setSending(kind, false)` replaces the outgoing track with none: no packets of that kind leave at
 *   all (a muted microphone sends no silence, a camera turned off no black frames).
 * - Video steps down on a slow link (videoSteps.ts), audio is kept and sent with high priority.
 */
import {
  CANDIDATES_PER_SIGNAL_MAX,
  type IceCandidate,
  type IceConfig,
  type SessionDescription,
} from '@inbound/contract';
import { applyVideoStep, type VideoStep } from './videoSteps';

/** How long a dropped media path may take to come back before the link counts as lost. */
export const LOST_AFTER_MS = 15_000;
const RESTART_EVERY_MS = 4_000;
/** Candidates gathered within this window go in one request. */
const CANDIDATE_BATCH_MS = 15;

export type PeerState = 'connecting' | 'connected' | 'reconnecting' | 'lost';

export interface PeerSignal {
  description?: SessionDescription;
  candidates?: IceCandidate[];
}

export interface CallQuality {
  /** Round trip of the media path (ms), null until measured. */
  rttMs: number | null;
  /** Lost share of incoming audio packets (%). */
  lossPercent: number | null;
  bytesReceived: number;
  packetsSent: number;
  /** Whether the path goes through a TURN relay. */
  relayed: boolean | null;
  /** Video received (bytes), with video. */
  videoBytesReceived?: number;
  /** The other side's report of our video: lost share (%) — what steps our video down. */
  videoLossPercent?: number | null;
  /** The estimate of what the path can carry out (bits/s), null when the browser has none yet. */
  availableOutgoingBitrate?: number | null;
}

export interface PeerLinkOptions {
  ice: IceConfig;
  localStream: MediaStream;
  /** Which local tracks to send: the voice call sends audio only. */
  kinds: readonly ('audio' | 'video')[];
  /** Makes the first offer and restarts ICE; the other side answers each offer. */
  offerer: boolean;
  send(signal: PeerSignal): Promise<unknown>;
  onState(state: PeerState): void;
  onRemoteStream(stream: MediaStream): void;
  /** A signal could not be sent or applied. */
  onError(error: unknown): void;
}

export interface PeerLink {
  /** A signal from the other side. */
  receive(signal: PeerSignal): void;
  /** Stops (or resumes) sending the local track of a kind: nothing of it leaves while off. */
  setSending(kind: 'audio' | 'video', on: boolean): Promise<void>;
  /** A new camera: the outgoing video track replaced without a new offer. */
  replaceVideo(track: MediaStreamTrack): Promise<void>;
  quality(): Promise<CallQuality>;
  /** Sets the outgoing video's encoding (bitrate, resolution, paused); audio is untouched. */
  setVideoStep(step: VideoStep, maxBitrate: number): Promise<void>;
  close(): void;
  readonly connection: RTCPeerConnection;
}

export function createPeerLink(options: PeerLinkOptions): PeerLink {
  const { offerer } = options;
  const pc = new RTCPeerConnection({
    iceServers: options.ice.iceServers,
    iceTransportPolicy: options.ice.iceTransportPolicy,
  });
  const senders = new Map<'audio' | 'video', { sender: RTCRtpSender; track: MediaStreamTrack }>();
  const sending = { audio: true, video: true };
  for (const kind of options.kinds) {
    const track = kind === 'audio' ? options.localStream.getAudioTracks()[0] : options.localStream.getVideoTracks()[0];
    if (track) senders.set(kind, { sender: pc.addTrack(track, options.localStream), track });
  }
  let closed = false;
  let everConnected = false;
  let lostTimer: ReturnType<typeof setTimeout> | null = null;
  let restartTimer: ReturnType<typeof setInterval> | null = null;

  // ---- outgoing signals, in order ----------------------------------------------------------------
  let outgoing: Promise<void> = Promise.resolve();
  const send = (signal: PeerSignal) => {
    outgoing = outgoing
      .then(() => options.send(signal))
      .then(
        () => undefined,
        (error: unknown) => {
          if (!closed) options.onError(error);
        },
      );
  };
  const batch: IceCandidate[] = [];
  let batchTimer: ReturnType<typeof setTimeout> | null = null;
  pc.onicecandidate = ({ candidate }) => {
    if (!candidate || !candidate.candidate) return;
    batch.push({ candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex });
    batchTimer ??= setTimeout(() => {
      batchTimer = null;
      while (batch.length > 0) send({ candidates: batch.splice(0, CANDIDATES_PER_SIGNAL_MAX) });
    }, CANDIDATE_BATCH_MS);
  };

  // ---- incoming ------------------------------------------------------------------------------------
  const early: IceCandidate[] = [];
  let applying: Promise<void> = Promise.resolve();
  const apply = (step: () => Promise<void>) => {
    applying = applying.then(step).catch((error: unknown) => {
      if (!closed) options.onError(error);
    });
  };

  async function addCandidates(candidates: IceCandidate[]) {
    if (!pc.remoteDescription) {
      early.push(...candidates);
      return;
    }
    for (const c of candidates) await pc.addIceCandidate(c);
  }

  async function offer(iceRestart: boolean) {
    const description = await pc.createOffer({ iceRestart });
    await pc.setLocalDescription(description);
    send({ description: { type: 'offer', sdp: description.sdp ?? '' } });
  }

  // ---- state ---------------------------------------------------------------------------------------
  const stopRecovery = () => {
    if (lostTimer) clearTimeout(lostTimer);
    if (restartTimer) clearInterval(restartTimer);
    lostTimer = null;
    restartTimer = null;
  };
  pc.onconnectionstatechange = () => {
    if (closed) return;
    const state = pc.connectionState;
    if (state === 'connected') {
      everConnected = true;
      stopRecovery();
      options.onState('connected');
    } else if ((state === 'disconnected' || state === 'failed') && everConnected) {
      options.onState('reconnecting');
      if (offerer && !restartTimer) {
        const restart = () => apply(() => offer(true));
        restart();
        restartTimer = setInterval(restart, RESTART_EVERY_MS);
      }
      lostTimer ??= setTimeout(() => {
        stopRecovery();
        options.onState('lost');
      }, LOST_AFTER_MS);
    } else if (state === 'failed') {
      options.onState('lost');
    }
  };
  pc.ontrack = ({ streams, track }) => options.onRemoteStream(streams[0] ?? new MediaStream([track]));

  options.onState('connecting');
  if (offerer) apply(() => offer(false));

  // Audio first when the path is short of room (the browser's send priority).
  const audio = senders.get('audio');
  if (audio && senders.has('video')) {
    const parameters = audio.sender.getParameters();
    if (parameters.encodings?.[0]) {
      parameters.encodings[0].priority = 'high';
      parameters.encodings[0].networkPriority = 'high';
      void audio.sender.setParameters(parameters).catch(() => undefined);
    }
  }

  return {
    connection: pc,
    receive({ description, candidates }) {
      if (closed) return;
      apply(async () => {
        if (description) {
          // The offerer offers (again after an ICE restart); the other side answers each offer.
          if (description.type === 'offer' && !offerer) {
            await pc.setRemoteDescription(description);
            await addCandidates(early.splice(0));
            const answer = await pc.createAnswer();
            await pc.setLocalDescription(answer);
            send({ description: { type: 'answer', sdp: answer.sdp ?? '' } });
          } else if (description.type === 'answer' && offerer && pc.signalingState === 'have-local-offer') {
            await pc.setRemoteDescription(description);
            await addCandidates(early.splice(0));
          }
        }
        if (candidates) await addCandidates(candidates);
      });
    },
    async setSending(kind, on) {
      sending[kind] = on;
      const entry = senders.get(kind);
      if (entry) await entry.sender.replaceTrack(on ? entry.track : null);
    },
    async replaceVideo(track) {
      const entry = senders.get('video');
      if (!entry) return;
      entry.track = track;
      if (sending.video) await entry.sender.replaceTrack(track);
    },
    async setVideoStep(step, maxBitrate) {
      const entry = senders.get('video');
      if (entry) await applyVideoStep(entry.sender, step, maxBitrate);
    },
    async quality() {
      const report = await pc.getStats();
      let rttMs: number | null = null;
      let relayed: boolean | null = null;
      let availableOutgoingBitrate: number | null = null;
      let bytesReceived = 0;
      let videoBytesReceived = 0;
      let packetsSent = 0;
      let lost = 0;
      let received = 0;
      let videoLossPercent: number | null = null;
      const byId = new Map<string, Record<string, unknown>>();
      report.forEach((s: Record<string, unknown>) => byId.set(String(s.id), s));
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
          if (typeof s.currentRoundTripTime === 'number') rttMs = Math.round(s.currentRoundTripTime * 1000);
          if (typeof s.availableOutgoingBitrate === 'number') availableOutgoingBitrate = s.availableOutgoingBitrate;
          const local = byId.get(String(s.localCandidateId));
          if (local) relayed = local.candidateType === 'relay';
        }
        if (s.type === 'inbound-rtp' && s.kind === 'audio') {
          bytesReceived += Number(s.bytesReceived ?? 0);
          lost += Number(s.packetsLost ?? 0);
          received += Number(s.packetsReceived ?? 0);
        }
        if (s.type === 'inbound-rtp' && s.kind === 'video') videoBytesReceived += Number(s.bytesReceived ?? 0);
        if (s.type === 'remote-inbound-rtp' && s.kind === 'video' && typeof s.fractionLost === 'number')
          videoLossPercent = Math.round(s.fractionLost * 1000) / 10;
        if (s.type === 'outbound-rtp' && s.kind === 'audio') packetsSent += Number(s.packetsSent ?? 0);
      });
      const lossPercent = received + lost > 0 ? Math.round((lost / (received + lost)) * 1000) / 10 : null;
      return {
        rttMs,
        lossPercent,
        bytesReceived,
        packetsSent,
        relayed,
        videoBytesReceived,
        videoLossPercent,
        availableOutgoingBitrate,
      };
    },
    close() {
      if (closed) return;
      closed = true;
      stopRecovery();
      if (batchTimer) clearTimeout(batchTimer);
      pc.close();
    },
  };
}
