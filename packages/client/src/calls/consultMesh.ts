/**
 * This browser's side of a live video consult (issue 12 item 2; contract: consults.ts), for both apps:
 * a full mesh — one peer link (peerLink.ts) to each other participant, audio and video both ways.
 *
 * - Who offers: the one who joins offers to everyone already in the room (the join's answer lists
 *   them); those in the room answer the offers addressed to them. Joins are numbered by the server,
 *   so two browsers never offer to each other.
 * - Signals go out as `POST /v4/consults/{id}/signal` {from, to} and come in on `consult:{id}`, read
 *   from its first message (an answer sent before this side's subscription was confirmed is not
 *   missed); each side keeps only those addressed to its own participant id.
 * - Presence every CONSULT_PRESENCE_EVERY_MS; the room it answers drops links to those who are gone.
 * - Quality every CALL_QUALITY_EVERY_MS per link: shown beside each participant, and it steps that
 *   link's outgoing video down or up (videoSteps.ts); audio is kept.
 */
import {
  CONSULT_EVENTS,
  CONSULT_PRESENCE_EVERY_MS,
  ConsultResponse,
  type Consult,
  type ConsultChannelMessage,
  type ConsultParticipant,
  type JoinConsultResponse,
} from '@inbound/contract';
import type { RealtimeClient } from '../realtime/realtimeClient';
import { subscribeChannel } from '../realtime/channels';
import type { ApiCall } from './callPeer';
import { CALL_QUALITY_EVERY_MS } from './callDisplay';
import { createPeerLink, type CallQuality, type PeerLink, type PeerState } from './peerLink';
import { nextVideoStep, videoBudget, type VideoStep } from './videoSteps';

export interface MeshPeer {
  participant: ConsultParticipant;
  state: PeerState;
  stream: MediaStream | null;
  quality: CallQuality | null;
  /** Our video to this participant: 0 full … 3 paused (videoSteps.ts). */
  videoStep: VideoStep;
}

export interface ConsultMeshOptions {
  api: ApiCall;
  realtime: RealtimeClient;
  joined: JoinConsultResponse;
  localStream: MediaStream;
  /** The others in the room as they are now (a new array on every change). */
  onPeers(peers: MeshPeer[]): void;
  /** The consult ended, or this side was taken out of it (its presence went unheard). */
  onEnded(consult: Consult | null): void;
  onError(error: unknown): void;
}

export interface ConsultMesh {
  setSending(kind: 'audio' | 'video', on: boolean): Promise<void>;
  replaceVideo(track: MediaStreamTrack): Promise<void>;
  /** Hang up: leave the room (the last one out ends the consult) and close every link. */
  leave(): Promise<void>;
  readonly participantId: string;
  readonly consultId: string;
  /** The links, for tests and stats (participant id → connection). */
  connections(): Map<string, RTCPeerConnection>;
}

interface Entry extends MeshPeer {
  link: PeerLink;
  goodRun: number;
  /** The bitrate budget last put on the video encoding (0: none yet). */
  budget: number;
}

export function createConsultMesh(options: ConsultMeshOptions): ConsultMesh {
  const { api, joined } = options;
  const consultId = joined.consult.id;
  const self = joined.participantId;
  const known = new Map<string, ConsultParticipant>(joined.consult.participants.map((p) => [p.id, p]));
  const peers = new Map<string, Entry>();
  const sending = { audio: true, video: true };
  let closed = false;

  const emit = () => {
    options.onPeers(
      [...peers.values()].map(({ participant, state, stream, quality, videoStep }) => ({
        participant,
        state,
        stream,
        quality,
        videoStep,
      })),
    );
  };

  function drop(participantId: string) {
    const entry = peers.get(participantId);
    if (!entry) return;
    entry.link.close();
    peers.delete(participantId);
    emit();
  }

  function connect(participant: ConsultParticipant, offerer: boolean): Entry {
    const existing = peers.get(participant.id);
    if (existing) return existing;
    const entry = {
      participant,
      state: 'connecting' as PeerState,
      stream: null as MediaStream | null,
      quality: null,
      videoStep: 0 as VideoStep,
      goodRun: 0,
      budget: 0,
    } as Entry;
    entry.link = createPeerLink({
      ice: joined.ice,
      localStream: options.localStream,
      kinds: ['audio', 'video'],
      offerer,
      send: (signal) =>
        api('signalConsult', { params: { consultId }, body: { from: self, to: participant.id, ...signal } }),
      onState(state) {
        entry.state = state;
        if (state === 'lost') drop(participant.id);
        else emit();
      },
      onRemoteStream(stream) {
        entry.stream = stream;
        emit();
      },
      onError: options.onError,
    });
    peers.set(participant.id, entry);
    if (!sending.audio) void entry.link.setSending('audio', false);
    if (!sending.video) void entry.link.setSending('video', false);
    emit();
    return entry;
  }

  function onMessage(message: ConsultChannelMessage) {
    if (closed) return;
    if (message.type === CONSULT_EVENTS.joined) {
      known.set(message.data.participant.id, message.data.participant);
      return;
    }
    if (message.type === CONSULT_EVENTS.left) return drop(message.data.participantId);
    if (message.type === CONSULT_EVENTS.ended) {
      finish();
      return options.onEnded(message.data.consult);
    }
    const signal = message.data;
    if (signal.to !== self || signal.from === self) return;
    let entry = peers.get(signal.from);
    if (!entry) {
      // A newcomer's offer: answer it. Anything else from someone without a link is stale.
      const participant = known.get(signal.from);
      if (!participant || signal.description?.type !== 'offer') return;
      entry = connect(participant, false);
    }
    entry.link.receive({
      ...(signal.description ? { description: signal.description } : {}),
      ...(signal.candidates ? { candidates: signal.candidates } : {}),
    });
  }

  const unsubscribe = subscribeChannel(
    options.realtime,
    'consult',
    consultId,
    { onMessage, onError: (message) => options.onError(new Error(message)) },
    { fromStart: true },
  );

  // The newcomer offers to everyone already there.
  for (const participant of joined.consult.participants) if (participant.id !== self) connect(participant, true);

  const presence = setInterval(() => {
    api('consultPresence', { params: { consultId }, body: { participantId: self } }).then(
      (answer) => {
        const room = ConsultResponse.parse(answer).consult;
        const inRoom = new Set(room.participants.map((p) => p.id));
        for (const p of room.participants) known.set(p.id, p);
        if (!inRoom.has(self) || room.state === 'ended') {
          finish();
          options.onEnded(room);
          return;
        }
        for (const id of [...peers.keys()]) if (!inRoom.has(id)) drop(id);
      },
      (error: unknown) => options.onError(error),
    );
  }, CONSULT_PRESENCE_EVERY_MS);

  const measuring = setInterval(() => {
    const budget = videoBudget(peers.size);
    for (const entry of peers.values()) {
      if (entry.state !== 'connected') continue;
      void entry.link.quality().then(async (quality) => {
        entry.quality = quality;
        const next = nextVideoStep(
          entry.videoStep,
          entry.goodRun,
          {
            rttMs: quality.rttMs,
            videoLossPercent: quality.videoLossPercent ?? null,
            availableOutgoingBitrate: quality.availableOutgoingBitrate ?? null,
          },
          budget,
        );
        entry.goodRun = next.goodRun;
        if (next.step !== entry.videoStep || budget !== entry.budget) {
          entry.videoStep = next.step;
          entry.budget = budget;
          await entry.link.setVideoStep(entry.videoStep, budget).catch(() => undefined);
        }
        emit();
      }, options.onError);
    }
  }, CALL_QUALITY_EVERY_MS);

  function finish() {
    if (closed) return;
    closed = true;
    clearInterval(presence);
    clearInterval(measuring);
    unsubscribe();
    for (const entry of peers.values()) entry.link.close();
    peers.clear();
  }

  return {
    participantId: self,
    consultId,
    async setSending(kind, on) {
      sending[kind] = on;
      await Promise.all([...peers.values()].map((e) => e.link.setSending(kind, on)));
    },
    async replaceVideo(track) {
      await Promise.all([...peers.values()].map((e) => e.link.replaceVideo(track)));
    },
    async leave() {
      finish();
      await api('leaveConsult', { params: { consultId }, body: { participantId: self } });
    },
    connections: () => new Map([...peers.entries()].map(([id, e]) => [id, e.link.connection])),
  };
}
