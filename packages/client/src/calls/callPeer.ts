/**
 * One side of a voice call on the browser's WebRTC (issue 12), for both apps: the crew calls (offerer),
 * the console that answered answers. Signals go out as `POST /v4/calls/{id}/signal` and come in on the
 * call's channel `call:{id}`, read from its first message so that an offer and candidates sent before
 * this side subscribed are not missed. Audio only; the server never carries media.
 *
 * - Candidates are sent in small batches (one request per burst, in order after the description).
 * - Mute replaces the outgoing track with none: no audio packets leave at all (not silence).
 * - A dropped path (Wi-Fi ↔ LTE, a tunnel): the caller restarts ICE at once and again every few
 *   seconds; when nothing connects within LOST_AFTER_MS the call is lost.
 */
import {
  CALL_ALIVE_INTERVAL_MS,
  CALL_EVENTS,
  CANDIDATES_PER_SIGNAL_MAX,
  type Call,
  type CallChannelMessage,
  type CallSignalBody,
  type IceCandidate,
  type IceConfig,
  type RouteName,
} from '@inbound/contract';
import type { CallOptions } from '../apiClient';
import type { RealtimeClient } from '../realtime/realtimeClient';
import { subscribeChannel } from '../realtime/channels';

/** How long a dropped media path may take to come back before the call counts as lost. */
export const LOST_AFTER_MS = 15_000;
const RESTART_EVERY_MS = 4_000;
/** Candidates gathered within this window go in one request. */
const CANDIDATE_BATCH_MS = 15;

export type PeerState = 'connecting' | 'connected' | 'reconnecting' | 'lost';

export type ApiCall = <K extends RouteName>(name: K, options?: CallOptions<K>) => Promise<unknown>;

export interface CallPeerOptions {
  api: ApiCall;
  realtime: RealtimeClient;
  callId: string;
  /** The signed-in user: signals from this user are this side's own. */
  selfUserId: string;
  role: 'caller' | 'answerer';
  ice: IceConfig;
  localStream: MediaStream;
  onState(state: PeerState): void;
  onRemoteStream(stream: MediaStream): void;
  /** The call answered (for the caller) or ended (both), as the server says. */
  onCallChanged(call: Call, how: 'answered' | 'ended'): void;
  /** A signal could not be sent or applied. */
  onError(error: unknown): void;
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
}

export interface CallPeer {
  setMuted(muted: boolean): Promise<void>;
  quality(): Promise<CallQuality>;
  close(): void;
  readonly connection: RTCPeerConnection;
}

export function createCallPeer(options: CallPeerOptions): CallPeer {
  const { api, callId, role } = options;
  const pc = new RTCPeerConnection({
    iceServers: options.ice.iceServers,
    iceTransportPolicy: options.ice.iceTransportPolicy,
  });
  const audioTrack = options.localStream.getAudioTracks()[0] ?? null;
  const sender = audioTrack ? pc.addTrack(audioTrack, options.localStream) : null;
  let closed = false;
  let everConnected = false;
  let lostTimer: ReturnType<typeof setTimeout> | null = null;
  let restartTimer: ReturnType<typeof setInterval> | null = null;
  // Still in the call: without these from either side for CALL_ALIVE_TIMEOUT_MS the server ends it as lost
  // (both browsers gone). A failed one is not an error: the next one, or the connection's state, tells.
  const aliveTimer = setInterval(() => {
    if (!closed) void api('callAlive', { params: { callId } }).catch(() => undefined);
  }, CALL_ALIVE_INTERVAL_MS);

  // ---- outgoing signals, in order ----------------------------------------------------------------
  let sending: Promise<void> = Promise.resolve();
  const send = (body: CallSignalBody) => {
    sending = sending
      .then(() => api('signalCall', { params: { callId }, body }))
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

  function onMessage(message: CallChannelMessage) {
    if (closed) return;
    if (message.type === CALL_EVENTS.answered) return options.onCallChanged(message.data.call, 'answered');
    if (message.type === CALL_EVENTS.ended) return options.onCallChanged(message.data.call, 'ended');
    const signal = message.data;
    if (signal.from === options.selfUserId) return;
    apply(async () => {
      const { description, candidates } = signal;
      if (description) {
        // The caller offers (again after an ICE restart); the answerer answers each offer.
        if (description.type === 'offer' && role === 'answerer') {
          await pc.setRemoteDescription(description);
          await addCandidates(early.splice(0));
          const answer = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          send({ description: { type: 'answer', sdp: answer.sdp ?? '' } });
        } else if (description.type === 'answer' && role === 'caller' && pc.signalingState === 'have-local-offer') {
          await pc.setRemoteDescription(description);
          await addCandidates(early.splice(0));
        }
      }
      if (candidates) await addCandidates(candidates);
    });
  }

  const unsubscribe = subscribeChannel(
    options.realtime,
    'call',
    callId,
    { onMessage, onError: (message) => options.onError(new Error(message)) },
    { fromStart: true },
  );

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
      if (role === 'caller' && !restartTimer) {
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
  if (role === 'caller') apply(() => offer(false));

  return {
    connection: pc,
    async setMuted(muted) {
      if (sender && audioTrack) await sender.replaceTrack(muted ? null : audioTrack);
    },
    async quality() {
      const report = await pc.getStats();
      let rttMs: number | null = null;
      let relayed: boolean | null = null;
      let bytesReceived = 0;
      let packetsSent = 0;
      let lost = 0;
      let received = 0;
      const byId = new Map<string, Record<string, unknown>>();
      report.forEach((s: Record<string, unknown>) => byId.set(String(s.id), s));
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
          if (typeof s.currentRoundTripTime === 'number') rttMs = Math.round(s.currentRoundTripTime * 1000);
          const local = byId.get(String(s.localCandidateId));
          if (local) relayed = local.candidateType === 'relay';
        }
        if (s.type === 'inbound-rtp' && s.kind === 'audio') {
          bytesReceived += Number(s.bytesReceived ?? 0);
          lost += Number(s.packetsLost ?? 0);
          received += Number(s.packetsReceived ?? 0);
        }
        if (s.type === 'outbound-rtp' && s.kind === 'audio') packetsSent += Number(s.packetsSent ?? 0);
      });
      const lossPercent = received + lost > 0 ? Math.round((lost / (received + lost)) * 1000) / 10 : null;
      return { rttMs, lossPercent, bytesReceived, packetsSent, relayed };
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(aliveTimer);
      stopRecovery();
      if (batchTimer) clearTimeout(batchTimer);
      unsubscribe();
      pc.close();
    },
  };
}
