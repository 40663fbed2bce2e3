import { useEffect, useRef, useState } from 'react';
import { callMessages, consultMessages } from '@inbound/contract';
import {
  CONSULT_SESSION_START,
  meshPeerText,
  startConsultSession,
  type ConsultSession,
  type ConsultSessionView,
  type MeshPeer,
} from '@inbound/client';
import { api } from '../../lib/client';
import { getRealtime } from '../../lib/realtime/realtime';
import './consult.css';

/**
 * The console's (or a specialist's phone's) side of a live consult (issue 12 item 2): joins the case's
 * room, shows everyone else's video with their link quality, 'Waiting for others to join...' until
 * someone is there; mic, camera and hang-up; camera switch only with more than one camera. The consult
 * itself (camera, join, mesh, toggles) is the shared consultSession.ts; this panel draws it.
 */
export function ConsultRoom({ caseId, title, onClose }: { caseId: string; title: string; onClose: () => void }) {
  const [view, setView] = useState<ConsultSessionView>(CONSULT_SESSION_START);
  const [problem, setProblem] = useState<string | null>(null);
  const local = useRef<HTMLVideoElement>(null);
  const session = useRef<ConsultSession | null>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const started = startConsultSession({
      api: (name, options) => api(name, options),
      realtime: getRealtime(),
      caseId,
      // The camera first: a console whose camera fails never starts a room.
      joinAfterCamera: true,
      onChange: setView,
      onOver(failure) {
        if (!failure) closeRef.current();
        else if (failure.step === 'camera') setProblem(callMessages.deviceError);
        else setProblem(failure.error instanceof Error ? failure.error.message : callMessages.connectionIssue);
      },
    });
    session.current = started;
    return () => started.hangUp();
  }, [caseId]);

  useEffect(() => {
    if (local.current) local.current.srcObject = view.localStream;
  }, [view.localStream, view.cameraIndex]);

  const { peers, joined, mic, camera } = view;
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
            <button
              type="button"
              className="consult-room__button"
              aria-pressed={!mic}
              onClick={() => session.current?.toggleMic()}
            >
              {mic ? 'Mic on' : 'Mic off'}
            </button>
            <button
              type="button"
              className="consult-room__button"
              aria-pressed={!camera}
              onClick={() => session.current?.toggleCamera()}
            >
              {camera ? 'Camera on' : 'Camera off'}
            </button>
            {view.cameras > 1 && (
              <button
                type="button"
                className="consult-room__button"
                onClick={() => void session.current?.switchCamera()}
              >
                Switch camera
              </button>
            )}
            <button
              type="button"
              className="consult-room__button consult-room__button--hangup"
              onClick={() => session.current?.hangUp()}
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
  return (
    <figure className="consult-room__tile" data-participant={peer.participant.id} data-state={peer.state}>
      <video ref={video} autoPlay playsInline className="consult-room__video" />
      <figcaption className="consult-room__caption">
        <span className="consult-room__name">
          {peer.participant.name}
          {peer.participant.side === 'crew' ? ' (crew)' : ''}
        </span>
        <span className="consult-room__quality" data-testid="consult-quality">
          {meshPeerText(peer)}
        </span>
      </figcaption>
    </figure>
  );
}
