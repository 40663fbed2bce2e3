import { useEffect, useRef, useState } from 'react';
import { enqueueMedia } from '../mediaQueue';
import { formatDuration, StreamRecorder, useElapsedSeconds, VIDEO_MIME_TYPES, type Recording } from '../recorder';
import { CaptureScreen, SwitchCameraButton } from './CaptureScreen';
import { useCamera } from './useCamera';

type Step = 'preview' | 'recording' | 'review';

/**
 * Video (spec §2): live preview → Record (elapsed time shown) → Stop → play it back → Retake or Send. The
 * recording is kept as the browser made it (H.264 when it can); the server converts it to MP4/AAC.
 */
export function VideoCapture({ caseId, onClose }: { caseId: () => string | null; onClose: () => void }) {
  const { videoRef, stream, error, opening, canSwitch, switchCamera } = useCamera({ audio: true });
  const recorder = useRef<StreamRecorder | null>(null);
  const [step, setStep] = useState<Step>('preview');
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [recording, setRecording] = useState<(Recording & { url: string }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const elapsed = useElapsedSeconds(startedAt);

  // Leaving the screen mid-recording drops the recording; the review's object URL is released.
  useEffect(() => () => recorder.current?.cancel(), []);
  useEffect(() => {
    if (!recording) return undefined;
    return () => URL.revokeObjectURL(recording.url);
  }, [recording]);

  const record = () => {
    if (!stream) return;
    try {
      recorder.current = new StreamRecorder(stream, VIDEO_MIME_TYPES);
      setStartedAt(recorder.current.start());
      setStep('recording');
      setProblem(null);
    } catch (failure) {
      console.error('video recorder could not start', failure instanceof Error ? failure.name : failure);
      setProblem('This device cannot record video here.');
    }
  };

  const stop = async () => {
    const active = recorder.current;
    if (!active) return;
    try {
      const result = await active.stop();
      setRecording({ ...result, url: URL.createObjectURL(result.blob) });
      setStep('review');
    } catch (failure) {
      console.error('video recorder could not stop', failure instanceof Error ? failure.name : failure);
      setProblem('The recording failed. Please record again.');
      setStep('preview');
    } finally {
      recorder.current = null;
      setStartedAt(null);
    }
  };

  const retake = () => {
    setRecording(null);
    setStep('preview');
  };

  const send = async () => {
    const id = caseId();
    if (!recording || !id) return;
    setSaving(true);
    try {
      await enqueueMedia({ caseId: id, eventType: 'video', blob: recording.blob, lengthSeconds: recording.seconds });
      onClose();
    } catch (failure) {
      console.error('video could not be queued', failure instanceof Error ? failure.name : failure);
      setProblem('The video could not be saved on this device. Please try again.');
      setSaving(false);
    }
  };

  const shownError = error ?? problem;
  return (
    <CaptureScreen
      title="Video"
      onClose={onClose}
      status={
        <>
          {step === 'recording' && (
            <p className="capture__elapsed" role="timer" aria-label="Recording time">
              <span className="capture__rec-dot" aria-hidden="true" /> REC {formatDuration(elapsed)}
            </p>
          )}
          {step === 'review' && recording && (
            <p className="capture__elapsed">Length {formatDuration(Math.round(recording.seconds))}</p>
          )}
          {shownError && (
            <p className="capture__error" role="alert">
              {shownError}
            </p>
          )}
        </>
      }
      actions={
        step === 'preview' ? (
          <>
            {canSwitch && <SwitchCameraButton onSwitch={switchCamera} disabled={!stream} />}
            <button
              type="button"
              className="button button--danger capture__button"
              onClick={record}
              disabled={!stream}
              data-autofocus
            >
              Record
            </button>
          </>
        ) : step === 'recording' ? (
          <button type="button" className="button button--danger capture__button" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <>
            <button type="button" className="button button--secondary capture__button" onClick={retake}>
              Retake
            </button>
            <button
              type="button"
              className="button button--primary capture__button"
              onClick={() => void send()}
              disabled={saving}
            >
              {saving ? 'Saving…' : 'Send'}
            </button>
          </>
        )
      }
    >
      <video
        ref={videoRef}
        className="capture__preview"
        hidden={step === 'review'}
        autoPlay
        muted
        playsInline
        aria-label="Camera preview"
      />
      {step === 'review' && recording && (
        <video className="capture__preview" src={recording.url} controls playsInline aria-label="Recorded video" />
      )}
      {opening && !stream && !error && <p className="capture__hint">Starting the camera…</p>}
    </CaptureScreen>
  );
}
