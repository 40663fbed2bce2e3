import { useEffect, useRef, useState } from 'react';
import { callMessages, consultMessages, messages, type Hospital } from '@inbound/contract';
import { callQualityText, createConsultMesh, type ConsultMesh, type MeshPeer } from '@inbound/client';
import { showAlert } from '../../lib/alerts';
import { api } from '../../lib/apiClient';
import { ApiError } from '../../lib/apiError';
import { realtime } from '../../lib/realtime';
import { useBusyWhile } from '../../pwa/busy';
import { endConsultView, minimizeConsult } from './consultState';
import './consult.css';

/** Why joining failed, in the words the crew is shown. */
function joinError(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'http' && error.serverMessage) return error.serverMessage;
  if (error instanceof DOMException && error.name === 'NotSupportedError') return messages.getUserMediaMissing;
  if (error instanceof DOMException || (error instanceof Error && error.name === 'NotAllowedError'))
    return callMessages.deviceError;
  return callMessages.connectionIssue;
}

async function openCamera(deviceId?: string): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException(messages.getUserMediaMissing, 'NotSupportedError');
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true },
    video: deviceId ? { deviceId: { exact: deviceId } } : { width: { ideal: 640 }, height: { ideal: 480 } },
  });
}

/**
 * The live consult room (spec §4 "Live consult"): the destination's ED physician, a specialist on a
 * phone, … with the crew. 'Waiting for others to join...' until someone is there; mic, camera and
 * hang-up toggles; camera switch only with more than one camera; minimise to the nav-bar indicator.
 * Each participant's tile shows their link (RTT, loss) and when our video to them stepped down.
 */
export function ConsultScreen({
  caseId,
  hospital,
  minimized,
}: {
  caseId: string;
  hospital: Hospital;
  minimized: boolean;
}) {
  const [peers, setPeers] = useState<MeshPeer[]>([]);
  const [mic, setMic] = useState(true);
  const [camera, setCamera] = useState(true);
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [joined, setJoined] = useState(false);
  const local = useRef<HTMLVideoElement>(null);
  const session = useRef<{ mesh: ConsultMesh | null; stream: MediaStream | null; over: boolean; camera: number }>({
    mesh: null,
    stream: null,
    over: false,
    camera: 0,
  });
  const hangUp = useRef<() => void>(() => undefined);
  useBusyWhile('consult', true);

  useEffect(() => {
    const s = { mesh: null as ConsultMesh | null, stream: null as MediaStream | null, over: false, camera: 0 };
    session.current = s;
    const finish = (warning: string | null) => {
      if (s.over) return;
      s.over = true;
      const mesh = s.mesh;
      s.mesh = null;
      void mesh?.leave().catch(() => undefined);
      s.stream?.getTracks().forEach((t) => t.stop());
      endConsultView();
      if (warning) showAlert(warning, messages.warningTitle);
    };
    hangUp.current = () => finish(null);

    void (async () => {
      const [stream, answer] = await Promise.allSettled([openCamera(), api.call('joinConsult', { body: { caseId } })]);
      if (stream.status === 'fulfilled') s.stream = stream.value;
      if (answer.status === 'rejected' || stream.status === 'rejected') {
        if (answer.status === 'fulfilled') {
          const { consult, participantId } = answer.value;
          void api
            .call('leaveConsult', { params: { consultId: consult.id }, body: { participantId } })
            .catch(() => undefined);
        }
        finish(joinError(stream.status === 'rejected' ? stream.reason : (answer as PromiseRejectedResult).reason));
        return;
      }
      if (s.over) {
        const { consult, participantId } = answer.value;
        void api.call('leaveConsult', { params: { consultId: consult.id }, body: { participantId } });
        s.stream?.getTracks().forEach((t) => t.stop());
        return;
      }
      if (local.current) local.current.srcObject = stream.value;
      setJoined(true);
      s.mesh = createConsultMesh({
        api: (name, options) => api.call(name, options),
        realtime,
        joined: answer.value,
        localStream: stream.value,
        onPeers: setPeers,
        onEnded: () => finish(null),
        onError() {
          // A signal that did not go out: each link's state says whether it survives it.
        },
      });
      const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
      setCameras(devices.filter((d) => d.kind === 'videoinput'));
    })();
    return () => finish(null);
  }, [caseId]);

  const toggleMic = () => {
    const next = !mic;
    setMic(next);
    void session.current.mesh?.setSending('audio', next);
  };
  const toggleCamera = () => {
    const next = !camera;
    setCamera(next);
    void session.current.mesh?.setSending('video', next);
  };
  /** The next camera; one that fails is skipped (spec §8: camera failure tries the next, only logged). */
  const switchCamera = async () => {
    const s = session.current;
    for (let tried = 1; tried < cameras.length; tried += 1) {
      const index = (s.camera + tried) % cameras.length;
      try {
        const fresh = await navigator.mediaDevices.getUserMedia({
          video: { deviceId: { exact: cameras[index]!.deviceId } },
        });
        const track = fresh.getVideoTracks()[0];
        if (!track || !s.stream) return;
        const old = s.stream.getVideoTracks()[0];
        if (old) {
          s.stream.removeTrack(old);
          old.stop();
        }
        s.stream.addTrack(track);
        await s.mesh?.replaceVideo(track);
        if (!camera) track.enabled = true;
        s.camera = index;
        if (local.current) local.current.srcObject = s.stream;
        return;
      } catch (error) {
        console.warn('camera failed, trying the next', error);
      }
    }
  };

  return (
    <div
      className={minimized ? 'consult consult--minimized' : 'consult'}
      role="dialog"
      aria-modal={!minimized}
      aria-hidden={minimized}
      aria-label={`Live consult with ${hospital.name}`}
      data-testid="consult-screen"
    >
      <header className="consult__bar">
        <p className="consult__title">Live consult · {hospital.name}</p>
        <button type="button" className="consult__minimize" onClick={minimizeConsult}>
          Minimize
        </button>
      </header>
      <div className={`consult__tiles consult__tiles--${Math.max(1, peers.length)}`}>
        {peers.length === 0 ? (
          <p className="consult__waiting" role="status">
            {joined ? consultMessages.waiting : callMessages.connecting}
          </p>
        ) : (
          peers.map((peer) => <RemoteTile key={peer.participant.id} peer={peer} />)
        )}
      </div>
      <video
        ref={local}
        className="consult__self"
        autoPlay
        playsInline
        muted
        data-testid="consult-self"
        hidden={!camera}
      />
      <div className="consult__actions">
        <button
          type="button"
          className={mic ? 'consult-button' : 'consult-button consult-button--off'}
          aria-pressed={!mic}
          onClick={toggleMic}
        >
          {mic ? 'Mic on' : 'Mic off'}
        </button>
        <button
          type="button"
          className={camera ? 'consult-button' : 'consult-button consult-button--off'}
          aria-pressed={!camera}
          onClick={toggleCamera}
        >
          {camera ? 'Camera on' : 'Camera off'}
        </button>
        {cameras.length > 1 && (
          <button type="button" className="consult-button" onClick={() => void switchCamera()}>
            Switch camera
          </button>
        )}
        <button type="button" className="consult-button consult-button--hangup" onClick={() => hangUp.current()}>
          Hang up
        </button>
      </div>
    </div>
  );
}

const STEP_TEXT = ['', 'our video reduced', 'our video low', 'our video paused (audio kept)'];

function RemoteTile({ peer }: { peer: MeshPeer }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && peer.stream && video.current.srcObject !== peer.stream) {
      video.current.srcObject = peer.stream;
      void video.current.play().catch(() => undefined);
    }
  }, [peer.stream]);
  const state =
    peer.state === 'connected'
      ? peer.quality
        ? callQualityText(peer.quality)
        : ''
      : peer.state === 'reconnecting'
        ? 'Reconnecting…'
        : callMessages.connecting;
  return (
    <figure className="consult-tile" data-participant={peer.participant.id} data-state={peer.state}>
      <video ref={video} autoPlay playsInline className="consult-tile__video" />
      <figcaption className="consult-tile__caption">
        <span className="consult-tile__name">{peer.participant.name}</span>
        <span className="consult-tile__quality" data-testid="consult-quality">
          {state}
          {peer.videoStep > 0 ? ` · ${STEP_TEXT[peer.videoStep]}` : ''}
        </span>
      </figcaption>
    </figure>
  );
}
