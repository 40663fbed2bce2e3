import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { callMessages, type Call, type CallRing } from '@inbound/contract';
import {
  createCallPeer,
  type CallPeer,
  type CallQuality,
  CALL_QUALITY_EVERY_MS,
  callQualityText,
  callTimer,
} from '@inbound/client';
import { api } from '../../lib/client';
import { getRealtime } from '../../lib/realtime/realtime';
import { startCallRecorder, type CallRecorder } from './callRecorder';
import { recordingStore } from './recordingStore';
import { webLocks } from './recordingUpload';

type Status = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

const DISCONNECTED_SHOWN_MS = 2_000;

interface Session {
  peer: CallPeer | null;
  stream: MediaStream | null;
  over: boolean;
  /** When the department records calls: both voices, kept as they come, uploaded when the call ends. */
  recorder: CallRecorder | null;
}

/**
 * The call this console answered: takes it (the first answer wins; a later one is told who has it),
 * then the microphone and the WebRTC answer. Status, timer, REC, connection quality, mute, hang up.
 */
export function ActiveCall({ ring, selfUserId, onClose }: { ring: CallRing; selfUserId: string; onClose: () => void }) {
  const [status, setStatus] = useState<Status>('CONNECTING');
  const [call, setCall] = useState<Call>(ring.call);
  const [problem, setProblem] = useState<string | null>(null);
  const [muted, setMuted] = useState(false);
  const [connectedAt, setConnectedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [quality, setQuality] = useState<CallQuality | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const session = useRef<Session>({ peer: null, stream: null, over: false, recorder: null });
  const hangUp = useRef<() => void>(() => undefined);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const s: Session = { peer: null, stream: null, over: false, recorder: null };
    session.current = s;
    const callId = ring.call.id;
    const finish = (message: string | null, tellServer: boolean) => {
      if (s.over) return;
      s.over = true;
      if (tellServer) void api('endCall', { params: { callId }, body: { reason: 'hangup' } }).catch(() => undefined);
      s.peer?.close();
      const recorder = s.recorder;
      s.recorder = null;
      if (recorder) void recorder.finish().catch(() => undefined);
      s.stream?.getTracks().forEach((t) => t.stop());
      setStatus('DISCONNECTED');
      setProblem(message);
      setTimeout(() => closeRef.current(), message ? 4_000 : DISCONNECTED_SHOWN_MS);
    };
    hangUp.current = () => finish(null, true);

    void (async () => {
      let taken;
      try {
        taken = await api('answerCall', { params: { callId } });
      } catch (error) {
        finish(error instanceof Error ? error.message : callMessages.connectionIssue, false);
        return;
      }
      setCall(taken.call);
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true },
        });
      } catch {
        void api('endCall', { params: { callId }, body: { reason: 'failed' } }).catch(() => undefined);
        finish(callMessages.deviceError, false);
        return;
      }
      s.stream = stream;
      if (s.over) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      if (taken.call.recording) {
        try {
          s.recorder = startCallRecorder(
            stream,
            { callId, caseId: ring.call.caseId, userId: selfUserId },
            { store: recordingStore(), locks: webLocks },
          );
        } catch {
          s.recorder = null; // no MediaRecorder here: the call goes on unrecorded
        }
      }
      s.peer = createCallPeer({
        api: (name, options) => api(name, options),
        realtime: getRealtime(),
        callId,
        selfUserId,
        role: 'answerer',
        ice: taken.ice,
        localStream: stream,
        onState(state) {
          if (state === 'connected') {
            setStatus('CONNECTED');
            setConnectedAt((at) => at ?? Date.now());
          } else if (state === 'lost') {
            void api('endCall', { params: { callId }, body: { reason: 'lost' } }).catch(() => undefined);
            finish(callMessages.connectionLost, false);
          }
        },
        onRemoteStream(remote) {
          s.recorder?.addRemote(remote);
          if (audio.current) {
            audio.current.srcObject = remote;
            void audio.current.play().catch(() => undefined);
          }
        },
        onCallChanged(changed, how) {
          setCall(changed);
          if (how === 'ended') finish(changed.outcome === 'lost' ? callMessages.connectionLost : null, false);
        },
        onError() {
          // The connection state decides whether a lost signal matters.
        },
      });
    })();
    return () => {
      if (!s.over) hangUp.current();
    };
  }, [ring.call.id, ring.call.caseId, selfUserId]);

  useEffect(() => {
    if (status !== 'CONNECTED') return undefined;
    const tick = setInterval(() => setNow(Date.now()), 500);
    const measure = setInterval(
      () => void session.current.peer?.quality().then(setQuality, () => undefined),
      CALL_QUALITY_EVERY_MS,
    );
    return () => {
      clearInterval(tick);
      clearInterval(measure);
    };
  }, [status]);

  const toggleMute = () => {
    setMuted(!muted);
    session.current.recorder?.setLocalMuted(!muted);
    void session.current.peer?.setMuted(!muted);
  };

  const line =
    status === 'CONNECTING'
      ? callMessages.connecting
      : status === 'CONNECTED'
        ? callTimer(now - (connectedAt ?? now))
        : callMessages.disconnected;

  return (
    <section className="active-call" aria-label={`Call about case ${call.caseNumber}`} data-call-status={status}>
      <p className="active-call__title">
        Call · Case {call.caseNumber}
        {ring.card ? ` · ${ring.card.truck.name}` : ''}
      </p>
      <p className="active-call__who">{call.caller.name}</p>
      <p className="active-call__state" role="status" data-testid="console-call-state">
        {line}
        {status === 'CONNECTED' && call.recording && <span className="active-call__rec">{callMessages.rec}</span>}
      </p>
      {problem && (
        <p className="active-call__problem" role="alert">
          {problem}
        </p>
      )}
      {status === 'CONNECTED' && quality && <p className="active-call__quality">{callQualityText(quality)}</p>}
      <audio ref={audio} autoPlay />
      <div className="active-call__actions">
        <button type="button" aria-pressed={muted} onClick={toggleMute} disabled={status === 'DISCONNECTED'}>
          {muted ? 'Unmute' : 'Mute'}
        </button>
        <button
          type="button"
          className="active-call__hangup"
          onClick={() => hangUp.current()}
          disabled={status === 'DISCONNECTED'}
        >
          Hang up
        </button>
        <Link to={`/case/${call.hospitalId}/${call.caseId}`}>Open case</Link>
      </div>
    </section>
  );
}
