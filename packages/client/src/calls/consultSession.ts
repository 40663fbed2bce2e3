/**
 * One browser's live consult from the tap to the hang-up, for both apps: the crew's ConsultScreen and
 * the console's ConsultRoom only draw it. It opens the camera and microphone, joins the case's room,
 * runs the mesh (consultMesh.ts), keeps the mic and camera toggles, switches cameras and ends it all —
 * leaving the room, stopping every track — once, however it ends.
 *
 * The toggles are the session's, not the mesh's: a tap before the mesh runs (while joining) is kept and
 * put on the mesh when it starts, so what the button says is what the links send.
 */
import { JoinConsultResponse, messages } from '@inbound/contract';
import type { RealtimeClient } from '../realtime/realtimeClient';
import type { ApiCall } from './callPeer';
import { createConsultMesh, type ConsultMesh, type MeshPeer } from './consultMesh';

/** What the room's screen shows. */
export interface ConsultSessionView {
  /** The join answered: 'Waiting for others to join...' rather than 'Connecting...'. */
  joined: boolean;
  peers: MeshPeer[];
  mic: boolean;
  camera: boolean;
  /** How many cameras the device has: "Switch camera" only with more than one (spec §4). */
  cameras: number;
  /** The local preview's stream, and which camera feeds it (a switch changes the track, not the stream). */
  localStream: MediaStream | null;
  cameraIndex: number;
}

export const CONSULT_SESSION_START: ConsultSessionView = {
  joined: false,
  peers: [],
  mic: true,
  camera: true,
  cameras: 0,
  localStream: null,
  cameraIndex: 0,
};

/** What failed before the consult ran: the camera/microphone or the join; each app words it. */
export interface ConsultFailure {
  step: 'camera' | 'join';
  error: unknown;
}

export interface ConsultSessionOptions {
  api: ApiCall;
  realtime: RealtimeClient;
  caseId: string;
  /**
   * The console opens the camera before it joins (a camera that fails never starts a room); the crew
   * asks for both at once (the room is there sooner on a slow link) and leaves again if the camera fails.
   */
  joinAfterCamera: boolean;
  onChange(view: ConsultSessionView): void;
  /** The consult is over for this browser: hung up or ended (null), or it could not start. */
  onOver(failure: ConsultFailure | null): void;
}

export interface ConsultSession {
  toggleMic(): void;
  toggleCamera(): void;
  /** The next camera; one that fails is skipped (spec §8: a camera failure tries the next, only logged). */
  switchCamera(): Promise<void>;
  hangUp(): void;
  /** The mesh, once it runs (tests, stats). */
  mesh(): ConsultMesh | null;
}

function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia)
    return Promise.reject(new DOMException(messages.getUserMediaMissing, 'NotSupportedError'));
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true },
    video: { width: { ideal: 640 }, height: { ideal: 480 } },
  });
}

/** Sets the outcome of a promise aside, so both of two started at once can be looked at. */
const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export function startConsultSession(options: ConsultSessionOptions): ConsultSession {
  const { api, caseId } = options;
  let view = CONSULT_SESSION_START;
  let mesh: ConsultMesh | null = null;
  let stream: MediaStream | null = null;
  let videoDevices: MediaDeviceInfo[] = [];
  let over = false;

  const update = (change: Partial<ConsultSessionView>) => {
    view = { ...view, ...change };
    if (!over) options.onChange(view);
  };

  const leave = (joined: JoinConsultResponse) =>
    api('leaveConsult', {
      params: { consultId: joined.consult.id },
      body: { participantId: joined.participantId },
    }).catch(() => undefined);

  function finish(failure: ConsultFailure | null) {
    if (over) return;
    over = true;
    const running = mesh;
    mesh = null;
    void running?.leave().catch(() => undefined);
    stream?.getTracks().forEach((t) => t.stop());
    options.onOver(failure);
  }

  /** The camera and the join, in the app's order; null when either failed (the session is then over). */
  async function acquire(): Promise<{ local: MediaStream; joined: JoinConsultResponse } | null> {
    const join = () =>
      settle(api('joinConsult', { body: { caseId } }).then((answer) => JoinConsultResponse.parse(answer)));
    const failed = (failure: ConsultFailure) => {
      finish(failure);
      return null;
    };
    if (options.joinAfterCamera) {
      const camera = await settle(openCamera());
      if (!camera.ok) return failed({ step: 'camera', error: camera.error });
      stream = camera.value;
      if (over) {
        stream.getTracks().forEach((t) => t.stop());
        return null;
      }
      update({ localStream: stream });
      const joined = await join();
      if (!joined.ok) return failed({ step: 'join', error: joined.error });
      return { local: stream, joined: joined.value };
    }
    const [camera, joined] = await Promise.all([settle(openCamera()), join()]);
    if (camera.ok) stream = camera.value;
    if (!camera.ok) {
      if (joined.ok) void leave(joined.value);
      return failed({ step: 'camera', error: camera.error });
    }
    if (!joined.ok) return failed({ step: 'join', error: joined.error });
    return { local: camera.value, joined: joined.value };
  }

  async function start() {
    const acquired = await acquire();
    if (!acquired) return;
    const { local, joined } = acquired;
    if (over) {
      // Hung up while joining: out of the room again.
      void leave(joined);
      local.getTracks().forEach((t) => t.stop());
      return;
    }
    update({ joined: true, localStream: local });
    mesh = createConsultMesh({
      api,
      realtime: options.realtime,
      joined,
      localStream: local,
      onPeers: (peers) => update({ peers }),
      onEnded: () => finish(null),
      onError() {
        // A signal that did not go out: each link's state says whether it survives it.
      },
    });
    // Taps made while joining.
    if (!view.mic) void mesh.setSending('audio', false);
    if (!view.camera) void mesh.setSending('video', false);
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
    videoDevices = devices.filter((d) => d.kind === 'videoinput');
    update({ cameras: videoDevices.length });
  }

  function toggle(kind: 'audio' | 'video') {
    const on = kind === 'audio' ? !view.mic : !view.camera;
    update(kind === 'audio' ? { mic: on } : { camera: on });
    void mesh?.setSending(kind, on);
  }

  void start();

  return {
    toggleMic: () => toggle('audio'),
    toggleCamera: () => toggle('video'),
    async switchCamera() {
      for (let tried = 1; tried < videoDevices.length; tried += 1) {
        const index = (view.cameraIndex + tried) % videoDevices.length;
        try {
          const fresh = await navigator.mediaDevices.getUserMedia({
            video: { deviceId: { exact: videoDevices[index]!.deviceId } },
          });
          const track = fresh.getVideoTracks()[0];
          if (!track || !stream) return;
          const old = stream.getVideoTracks()[0];
          if (old) {
            stream.removeTrack(old);
            old.stop();
          }
          stream.addTrack(track);
          await mesh?.replaceVideo(track);
          update({ cameraIndex: index });
          return;
        } catch (error) {
          console.warn('camera failed, trying the next', error);
        }
      }
    },
    hangUp: () => finish(null),
    mesh: () => mesh,
  };
}
