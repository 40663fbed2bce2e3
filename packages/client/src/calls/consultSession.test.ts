import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONSULT_EVENTS,
  channelName,
  type Consult,
  type ConsultParticipant,
  type JoinConsultResponse,
  type RealtimeEvent,
} from '@inbound/contract';
import type { ChannelListener, RealtimeClient } from '../realtime/realtimeClient';
import type { ApiCall } from './callPeer';
import { startConsultSession, type ConsultFailure, type ConsultSessionView } from './consultSession';

// The mic and camera of a live consult on every link, with the browser's WebRTC and media replaced by
// fakes that keep what each sender sends: the track it has (null: nothing of that kind leaves).

class FakeTrack {
  stopped = false;
  constructor(readonly kind: 'audio' | 'video') {}
  stop() {
    this.stopped = true;
  }
}

class FakeStream {
  constructor(private tracks: FakeTrack[]) {}
  getTracks = () => [...this.tracks];
  getAudioTracks = () => this.tracks.filter((t) => t.kind === 'audio');
  getVideoTracks = () => this.tracks.filter((t) => t.kind === 'video');
  addTrack = (t: FakeTrack) => this.tracks.push(t);
  removeTrack = (t: FakeTrack) => (this.tracks = this.tracks.filter((x) => x !== t));
}

class FakeSender {
  constructor(public track: FakeTrack | null) {}
  replaceTrack(track: FakeTrack | null) {
    this.track = track;
    return Promise.resolve();
  }
  getParameters = () => ({ encodings: [{}] });
  setParameters = () => Promise.resolve();
}

class FakePeerConnection {
  static all: FakePeerConnection[] = [];
  senders: FakeSender[] = [];
  connectionState = 'new';
  signalingState = 'stable';
  remoteDescription: unknown = null;
  onicecandidate: unknown = null;
  onconnectionstatechange: unknown = null;
  ontrack: unknown = null;
  constructor() {
    FakePeerConnection.all.push(this);
  }
  addTrack(track: FakeTrack) {
    const sender = new FakeSender(track);
    this.senders.push(sender);
    return sender;
  }
  createOffer = () => Promise.resolve({ type: 'offer', sdp: 'v=0 offer' });
  createAnswer = () => Promise.resolve({ type: 'answer', sdp: 'v=0 answer' });
  setLocalDescription(description: { type: string }) {
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
    return Promise.resolve();
  }
  setRemoteDescription(description: unknown) {
    this.remoteDescription = description;
    this.signalingState = 'stable';
    return Promise.resolve();
  }
  addIceCandidate = () => Promise.resolve();
  getStats = () => Promise.resolve(new Map());
  close() {
    this.connectionState = 'closed';
  }
  /** The kinds this link sends now. */
  sending(): string[] {
    return this.senders.filter((s) => s.track !== null).map((s) => s.track!.kind);
  }
}

const participant = (id: string, side: ConsultParticipant['side'] = 'hospital'): ConsultParticipant => ({
  id,
  userId: `u-${id}`,
  name: id,
  side,
  joinedAt: '2026-11-27T09:00:00.000Z',
  leftAt: null,
});

function room(participants: ConsultParticipant[]): Consult {
  return {
    id: 'k1',
    caseId: 'case-1',
    caseNumber: 'RV-1',
    hospitalId: 'rrmc',
    state: 'live',
    startedAt: '2026-11-27T09:00:00.000Z',
    endedAt: null,
    participants,
  };
}

/** The realtime client: the test delivers the room's messages. */
function fakeRealtime() {
  const listeners = new Map<string, ChannelListener>();
  let seq = 0;
  const client = {
    subscribe(channel: string, listener: ChannelListener) {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
  } as unknown as RealtimeClient;
  const deliver = (event: RealtimeEvent) => listeners.get(channelName('consult', 'k1'))?.onEvent(event, (seq += 1));
  return { client, deliver };
}

let devices: FakeTrack[];
beforeEach(() => {
  FakePeerConnection.all = [];
  devices = [];
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('navigator', {
    mediaDevices: {
      getUserMedia: () => {
        const tracks = [new FakeTrack('audio'), new FakeTrack('video')];
        devices.push(...tracks);
        return Promise.resolve(new FakeStream(tracks));
      },
      enumerateDevices: () => Promise.resolve([{ kind: 'videoinput', deviceId: 'front' }]),
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A session whose join the test answers (the crew joins a room where ed1 and ed2 already are). */
function session(joinAfterCamera: boolean) {
  let answerJoin: (joined: JoinConsultResponse) => void = () => undefined;
  const requests: string[] = [];
  const api = vi.fn((name: string) => {
    requests.push(name);
    if (name === 'joinConsult') return new Promise((resolve) => (answerJoin = resolve));
    return Promise.resolve(undefined);
  }) as unknown as ApiCall;
  const realtime = fakeRealtime();
  const views: ConsultSessionView[] = [];
  const over: (ConsultFailure | null)[] = [];
  const started = startConsultSession({
    api,
    realtime: realtime.client,
    caseId: 'case-1',
    joinAfterCamera,
    onChange: (view) => views.push(view),
    onOver: (failure) => over.push(failure),
  });
  const join = async () => {
    await vi.waitFor(() => expect(requests).toContain('joinConsult'));
    answerJoin({
      consult: room([participant('ed1'), participant('ed2'), participant('crew', 'crew')]),
      participantId: 'crew',
      ice: { iceServers: [], iceTransportPolicy: 'all', ttlSeconds: 600 },
    });
    await vi.waitFor(() => expect(FakePeerConnection.all).toHaveLength(2));
  };
  return { started, join, realtime, views, over, requests, view: () => views.at(-1) };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a live consult session', () => {
  it('mutes and resumes the microphone on every link, and a link made while muted starts muted', async () => {
    const s = session(false);
    await s.join();
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([
      ['audio', 'video'],
      ['audio', 'video'],
    ]);

    s.started.toggleMic();
    await settled();
    expect(s.view()?.mic).toBe(false);
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([['video'], ['video']]);

    // A third participant offers while the crew is muted: its link sends no audio either.
    s.realtime.deliver({
      type: CONSULT_EVENTS.joined,
      data: { consult: room([participant('ed3')]), participant: participant('ed3') },
    });
    s.realtime.deliver({
      type: CONSULT_EVENTS.signal,
      data: { consultId: 'k1', from: 'ed3', to: 'crew', description: { type: 'offer', sdp: 'v=0 offer' } },
    });
    await vi.waitFor(() => expect(FakePeerConnection.all).toHaveLength(3));
    await settled();
    expect(FakePeerConnection.all[2]!.sending()).toEqual(['video']);

    // Mic on: every link sends the same microphone track again.
    s.started.toggleMic();
    await settled();
    expect(s.view()?.mic).toBe(true);
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([
      ['audio', 'video'],
      ['audio', 'video'],
      ['audio', 'video'],
    ]);
    const mic = devices.find((t) => t.kind === 'audio');
    expect(FakePeerConnection.all.every((pc) => pc.senders.some((x) => x.track === mic))).toBe(true);

    // The camera is its own: off and on again, the audio untouched.
    s.started.toggleCamera();
    await settled();
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([['audio'], ['audio'], ['audio']]);
    s.started.toggleCamera();
    await settled();
    expect(FakePeerConnection.all.every((pc) => pc.sending().join() === 'audio,video')).toBe(true);
  });

  it('keeps a mic or camera tap made while joining: the links start as the buttons say', async () => {
    const s = session(false);
    await vi.waitFor(() => expect(s.requests).toContain('joinConsult'));
    s.started.toggleMic();
    s.started.toggleCamera();
    expect(s.view()).toMatchObject({ mic: false, camera: false, joined: false });
    await s.join();
    await settled();
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([[], []]);
    s.started.toggleMic();
    await settled();
    expect(FakePeerConnection.all.map((pc) => pc.sending())).toEqual([['audio'], ['audio']]);
  });

  it('hangs up once: leaves the room, stops the camera and microphone, closes every link', async () => {
    const s = session(true);
    await s.join();
    s.started.hangUp();
    s.started.hangUp();
    await settled();
    expect(s.over).toEqual([null]);
    expect(s.requests.filter((r) => r === 'leaveConsult')).toHaveLength(1);
    expect(devices.every((t) => t.stopped)).toBe(true);
    expect(FakePeerConnection.all.every((pc) => pc.connectionState === 'closed')).toBe(true);
  });

  it('says what failed: the console never joins when its camera fails', async () => {
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
    const s = session(true);
    await vi.waitFor(() => expect(s.over).toHaveLength(1));
    expect(s.over[0]?.step).toBe('camera');
    expect(s.requests).toEqual([]);
  });
});
