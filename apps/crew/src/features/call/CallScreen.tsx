import { useEffect, useRef, useState } from 'react';
import {
  CALL_RING_TIMEOUT_MS,
  callMessages,
  messages,
  type Call,
  type EndCallBody,
  type Hospital,
} from '@inbound/contract';
import {
  createCallPeer,
  type CallPeer,
  type CallQuality,
  CALL_QUALITY_EVERY_MS,
  callQualityText,
  callTimer,
} from '@inbound/client';
import { showAlert } from '../../lib/alerts';
import { api } from '../../lib/apiClient';
import { ApiError } from '../../lib/apiError';
import { realtime } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { setCallActive } from './callState';
import './call.css';

/** Spec §3 "Call state". */
type CallStatus = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED';

/** How long 'Disconnected' stays on screen after a call ends normally. */
const DISCONNECTED_SHOWN_MS = 1_500;

interface Session {
  peer: CallPeer | null;
  call: Call | null;
  stream: MediaStream | null;
  over: boolean;
}
const newSession = (): Session => ({ peer: null, call: null, stream: null, over: false });

/** Why starting failed, as spec §8 says it. */
function startError(error: unknown): string {
  if (error instanceof DOMException || (error instanceof Error && error.name === 'NotAllowedError'))
    return callMessages.deviceError;
  if (error instanceof ApiError && error.kind === 'http' && error.serverMessage) return error.serverMessage;
  return callMessages.connectionIssue;
}

/**
 * The voice call to the destination ED (spec §4): 'Connecting...' while it rings, mm:ss once
 * connected (REC when the department records), mute, the audio output where the browser can choose
 * one, hang up; 'Disconnected' when it ends. A call error opens a Warning, then the screen resets.
 */
export function CallScreen({ caseId, hospital, onClose }: { caseId: string; hospital: Hospital; onClose: () => void }) {
  const [status, setStatus] = useState<CallStatus>('CONNECTING');
  const [call, setCall] = useState<Call | null>(null);
  const [muted, setMuted] = useState(false);
  const [connectedAt, setConnectedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [quality, setQuality] = useState<CallQuality | null>(null);
  const [outputs, setOutputs] = useState<MediaDeviceInfo[]>([]);
  const [output, setOutput] = useState('');
  const audio = useRef<HTMLAudioElement>(null);
  const session = useRef<Session>(newSession());
  const hangUpRef = useRef<() => void>(() => undefined);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    // Each run has its own session (React's development double run must not start two calls).
    const s = newSession();
    session.current = s;
    setCallActive(true);
    let ringTimer: ReturnType<typeof setTimeout> | null = null;

    /** The end of the call on this side: tell the server (once), stop media, show or warn, reset. */
    const finish = (warning: string | null, reason: EndCallBody['reason'] | null) => {
      if (s.over) return;
      s.over = true;
      if (ringTimer) clearTimeout(ringTimer);
      if (reason && s.call)
        void api.call('endCall', { params: { callId: s.call.id }, body: { reason } }).catch(() => undefined);
      s.peer?.close();
      s.stream?.getTracks().forEach((t) => t.stop());
      setCallActive(false);
      setStatus('DISCONNECTED');
      if (warning) {
        showAlert(warning, messages.warningTitle);
        closeRef.current();
      } else setTimeout(() => closeRef.current(), DISCONNECTED_SHOWN_MS);
    };
    hangUpRef.current = () => finish(null, s.call?.state === 'connected' || s.call?.answeredBy ? 'hangup' : 'cancel');

    void (async () => {
      const userId = useSession.getState().user?._id ?? '';
      let started: Awaited<ReturnType<typeof startCall>>;
      try {
        started = await startCall(caseId);
      } catch (error) {
        finish(startError(error), null);
        return;
      }
      s.stream = started.stream;
      s.call = started.call;
      setCall(started.call);
      if (s.over) {
        // Hung up while it was being set up.
        void api
          .call('endCall', { params: { callId: started.call.id }, body: { reason: 'cancel' } })
          .catch(() => undefined);
        started.stream.getTracks().forEach((t) => t.stop());
        return;
      }
      ringTimer = setTimeout(() => {
        if (s.call?.state === 'ringing') finish(callMessages.noAnswer(`${hospital.name} ED`), 'missed');
      }, CALL_RING_TIMEOUT_MS);
      s.peer = createCallPeer({
        api: (name, options) => api.call(name, options),
        realtime,
        callId: started.call.id,
        selfUserId: userId,
        role: 'caller',
        ice: started.ice,
        localStream: started.stream,
        onState(state) {
          if (state === 'connected') {
            setStatus('CONNECTED');
            setConnectedAt((at) => at ?? Date.now());
          } else if (state === 'lost') finish(callMessages.connectionLost, 'lost');
        },
        onRemoteStream(stream) {
          if (audio.current) {
            audio.current.srcObject = stream;
            void audio.current.play().catch(() => undefined);
          }
        },
        onCallChanged(changed, how) {
          s.call = changed;
          setCall(changed);
          if (how === 'answered' && ringTimer) clearTimeout(ringTimer);
          if (how !== 'ended') return;
          if (changed.outcome === 'rejected') finish(callMessages.rejected, null);
          else if (changed.outcome === 'cancelled') finish(callMessages.cancelled, null);
          else if (changed.outcome === 'lost' || changed.outcome === 'failed')
            finish(callMessages.connectionLost, null);
          else finish(null, null);
        },
        onError() {
          // A signal that did not go out: the connection state decides whether the call survives it.
        },
      });
    })();

    return () => {
      if (!s.over) hangUpRef.current();
    };
  }, [caseId, hospital.name]);

  // The timer and the quality line while connected.
  useEffect(() => {
    if (status !== 'CONNECTED') return undefined;
    const tick = setInterval(() => setNow(Date.now()), 500);
    const measure = setInterval(() => {
      void session.current.peer?.quality().then(setQuality, () => undefined);
    }, CALL_QUALITY_EVERY_MS);
    return () => {
      clearInterval(tick);
      clearInterval(measure);
    };
  }, [status]);

  // Audio outputs (speaker, headset) where the browser lets a page choose one (setSinkId).
  useEffect(() => {
    if (!('setSinkId' in HTMLMediaElement.prototype) || !navigator.mediaDevices?.enumerateDevices) return;
    void navigator.mediaDevices.enumerateDevices().then((devices) => {
      const found = devices.filter((d) => d.kind === 'audiooutput' && d.deviceId);
      setOutputs(found);
      // The browser's current output is the list's first ('default'): show it as chosen.
      setOutput((current) => current || (found[0]?.deviceId ?? ''));
    });
  }, [status]);

  const toggleMute = () => {
    const next = !muted;
    setMuted(next);
    void session.current.peer?.setMuted(next);
  };

  const chooseOutput = (deviceId: string) => {
    setOutput(deviceId);
    const element = audio.current as (HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    void element?.setSinkId?.(deviceId).catch(() => undefined);
  };

  const line =
    status === 'CONNECTING'
      ? callMessages.connecting
      : status === 'CONNECTED'
        ? callTimer(now - (connectedAt ?? now))
        : callMessages.disconnected;

  return (
    <div
      className="call-screen"
      role="dialog"
      aria-modal="true"
      aria-label={`Call with ${hospital.name}`}
      data-call-status={status}
    >
      <p className="call-screen__who">{hospital.name} ED</p>
      {call?.answeredBy && <p className="call-screen__answered">{call.answeredBy.name}</p>}
      <p className="call-screen__state" role="status" data-testid="call-state">
        {line}
        {status === 'CONNECTED' && call?.recording && (
          <span className="call-screen__rec" aria-label="This call is recorded">
            {callMessages.rec}
          </span>
        )}
      </p>
      {status === 'CONNECTED' && quality && (
        <p className="call-screen__quality" data-testid="call-quality">
          {callQualityText(quality)}
        </p>
      )}
      <audio ref={audio} autoPlay />
      {outputs.length > 1 && (
        <label className="call-screen__output">
          Audio output
          <select value={output} onChange={(e) => chooseOutput(e.target.value)}>
            {outputs.map((d, i) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || `Output ${i + 1}`}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="call-screen__actions">
        <button
          type="button"
          className={muted ? 'call-button call-button--on' : 'call-button'}
          aria-pressed={muted}
          onClick={toggleMute}
          disabled={status === 'DISCONNECTED'}
        >
          {muted ? 'Unmute' : 'Mute'}
        </button>
        <button
          type="button"
          className="call-button call-button--hangup"
          onClick={() => hangUpRef.current()}
          disabled={status === 'DISCONNECTED'}
        >
          Hang up
        </button>
      </div>
    </div>
  );
}

/** The microphone and the call at once (each takes a round of its own); both or neither. */
async function startCall(caseId: string) {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException(messages.getUserMediaMissing, 'NotSupportedError');
  const [stream, started] = await Promise.allSettled([
    navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } }),
    api.call('startCall', { body: { caseId } }),
  ]);
  if (stream.status === 'rejected') {
    if (started.status === 'fulfilled')
      void api
        .call('endCall', { params: { callId: started.value.call.id }, body: { reason: 'failed' } })
        .catch(() => undefined);
    throw stream.reason instanceof Error ? stream.reason : new DOMException('microphone', 'NotAllowedError');
  }
  if (started.status === 'rejected') {
    stream.value.getTracks().forEach((t) => t.stop());
    throw started.reason;
  }
  return { stream: stream.value, call: started.value.call, ice: started.value.ice };
}
