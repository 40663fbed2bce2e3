import { useEffect, useRef, useState } from 'react';
import { callMessages, consultMessages, messages, type Hospital } from '@inbound/contract';
import {
  CONSULT_SESSION_START,
  meshPeerText,
  startConsultSession,
  type ConsultSession,
  type ConsultSessionView,
  type MeshPeer,
} from '@inbound/client';
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

/**
 * The live consult room (spec §4 "Live consult"): the destination's ED physician, a specialist on a
 * phone, … with the crew. 'Waiting for others to join...' until someone is there; mic, camera and
 * hang-up toggles; camera switch only with more than one camera; minimise to the nav-bar indicator.
 * Each participant's tile shows their link (RTT, loss) and when our video to them stepped down. The
 * consult itself (camera, join, mesh, toggles) is the shared consultSession.ts; this screen draws it.
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
  const [view, setView] = useState<ConsultSessionView>(CONSULT_SESSION_START);
  const local = useRef<HTMLVideoElement>(null);
  const session = useRef<ConsultSession | null>(null);
  useBusyWhile('consult', true);

  useEffect(() => {
    const started = startConsultSession({
      api: (name, options) => api.call(name, options),
      realtime,
      caseId,
      // The camera and the join at once: the room is there sooner on a slow link.
      joinAfterCamera: false,
      onChange: setView,
      onOver(failure) {
        endConsultView();
        if (failure) showAlert(joinError(failure.error), messages.warningTitle);
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
          onClick={() => session.current?.toggleMic()}
        >
          {mic ? 'Mic on' : 'Mic off'}
        </button>
        <button
          type="button"
          className={camera ? 'consult-button' : 'consult-button consult-button--off'}
          aria-pressed={!camera}
          onClick={() => session.current?.toggleCamera()}
        >
          {camera ? 'Camera on' : 'Camera off'}
        </button>
        {view.cameras > 1 && (
          <button type="button" className="consult-button" onClick={() => void session.current?.switchCamera()}>
            Switch camera
          </button>
        )}
        <button
          type="button"
          className="consult-button consult-button--hangup"
          onClick={() => session.current?.hangUp()}
        >
          Hang up
        </button>
      </div>
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
    <figure className="consult-tile" data-participant={peer.participant.id} data-state={peer.state}>
      <video ref={video} autoPlay playsInline className="consult-tile__video" />
      <figcaption className="consult-tile__caption">
        <span className="consult-tile__name">{peer.participant.name}</span>
        <span className="consult-tile__quality" data-testid="consult-quality">
          {meshPeerText(peer)}
        </span>
      </figcaption>
    </figure>
  );
}
