import { useEffect, useRef, useState } from 'react';
import { callMessages, consultMessages } from '@inbound/contract';
import { callQualityText, createConsultMesh, type ConsultMesh, type MeshPeer } from '@inbound/client';
import { api } from '../../lib/client';
import { getRealtime } from '../../lib/realtime/realtime';
import './consult.css';

const STEP_TEXT = ['', 'our video reduced', 'our video low', 'our video paused (audio kept)'];

/**
 * The console's (or a specialist's phone's) side of a live consult (issue 12 item 2): joins the case's
 * room, shows everyone else's video with their link quality, 'Waiting for others to join...' until
 * someone is there; mic, camera and hang-up; camera switch only with more than one camera.
 */
export function ConsultRoom({ caseId, title, onClose }: { caseId: string; title: string; onClose: () => void }) {
  const [peers, setPeers] = useState<MeshPeer[]>([]);
  const [joined, setJoined] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [mic, setMic] = useState(true);
  const [camera, setCamera] = useState(true);
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const local = useRef<HTMLVideoElement>(null);
  const session = useRef<{ mesh: ConsultMesh | null; stream: MediaStream | null; camera: number }>({
    mesh: null,
    stream: null,
    camera: 0,
  });
  const hangUp = useRef<() => void>(() => undefined);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const s = { mesh: null as ConsultMesh | null, stream: null as MediaStream | null, camera: 0, over: false };
    session.current = s;
    const finish = (message: string | null) => {
      if (s.over) return;
      s.over = true;
      const mesh = s.mesh;
      s.mesh = null;
      void mesh?.leave().catch(() => undefined);
      s.stream?.getTracks().forEach((t) => t.stop());
      if (message) setProblem(message);
      else closeRef.current();
    };
    hangUp.current = () => finish(null);
    void (async () => {
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true },
          video: { width: { ideal: 640 }, height: { ideal: 480 } },
        });
      } catch {
        finish(callMessages.deviceError);
        return;
      }
      s.stream = stream;
      if (s.over) return stream.getTracks().forEach((t) => t.stop());
      if (local.current) local.current.srcObject = stream;
      let answer;
      try {
        answer = await api('joinConsult', { body: { caseId } });
      } catch (error) {
        finish(error instanceof Error ? error.message : callMessages.connectionIssue);
        return;
      }
      if (s.over) {
        void api('leaveConsult', {
          params: { consultId: answer.consult.id },
          body: { participantId: answer.participantId },
        }).catch(() => undefined);
        return;
      }
      setJoined(true);
      s.mesh = createConsultMesh({
        api: (name, options) => api(name, options),
        realtime: getRealtime(),
        joined: answer,
        localStream: stream,
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
    setMic(!mic);
    void session.current.mesh?.setSending('audio', !mic);
  };
  const toggleCamera = () => {
    setCamera(!camera);
    void session.current.mesh?.setSending('video', !camera);
  };
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
      className="consult-room"
      role="dialog"
      aria-modal="true"
      aria-label={`Live consult: ${title}`}
      data-testid="consult-room"
    >
      <header className="consult-room__bar">
        <h2 className="consult-room__title">Live consult · {title}</h2>
        <span className="consult-room__count">{peers.length + 1} of 4 in the room</span>
      </header>
      {problem ? (
        <div className="consult-room__problem">
          <p role="alert" className="banner banner-error">
            {problem}
          </p>
          <button type="button" className="button" onClick={() => closeRef.current()}>
            Close
          </button>
        </div>
      ) : (
        <>
          <div className={`consult-room__tiles consult-room__tiles--${Math.max(1, peers.length)}`}>
            {peers.length === 0 ? (
              <p className="consult-room__waiting" role="status">
                {joined ? consultMessages.waiting : callMessages.connecting}
              </p>
            ) : (
              peers.map((peer) => <RemoteTile key={peer.participant.id} peer={peer} />)
            )}
          </div>
          <video ref={local} className="consult-room__self" autoPlay playsInline muted hidden={!camera} />
          <div className="consult-room__actions">
            <button type="button" className="consult-room__button" aria-pressed={!mic} onClick={toggleMic}>
              {mic ? 'Mic on' : 'Mic off'}
            </button>
            <button type="button" className="consult-room__button" aria-pressed={!camera} onClick={toggleCamera}>
              {camera ? 'Camera on' : 'Camera off'}
            </button>
            {cameras.length > 1 && (
              <button type="button" className="consult-room__button" onClick={() => void switchCamera()}>
                Switch camera
              </button>
            )}
            <button
              type="button"
              className="consult-room__button consult-room__button--hangup"
              onClick={() => hangUp.current()}
            >
              Hang up
            </button>
          </div>
        </>
      )}
    </div>
  );
}

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
    <figure className="consult-room__tile" data-participant={peer.participant.id} data-state={peer.state}>
      <video ref={video} autoPlay playsInline className="consult-room__video" />
      <figcaption className="consult-room__caption">
        <span className="consult-room__name">
          {peer.participant.name}
          {peer.participant.side === 'crew' ? ' (crew)' : ''}
        </span>
        <span className="consult-room__quality" data-testid="consult-quality">
          {state}
          {peer.videoStep > 0 ? ` · ${STEP_TEXT[peer.videoStep]}` : ''}
        </span>
      </figcaption>
    </figure>
  );
}
