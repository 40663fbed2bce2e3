import { useEffect, useRef, useState } from 'react';
import { Modal } from '../../ui/Modal';
import { captureErrorText, openMicrophone, stopStream } from './camera';
import { enqueueMedia } from './mediaQueue';
import { AUDIO_MIME_TYPES, formatDuration, StreamRecorder, useElapsedSeconds } from './recorder';
import './media.css';

/**
 * The voice memo recorder (spec §2 Media tab and the CHAT tab's mic): it records as soon as it opens —
 * one tap fewer for a medic with gloves on — and shows the counter, updated each second (§9). Stop and
 * send queues the memo (WebM/Opus; the server makes the MP3); Cancel drops it. `asChat` sends it as a
 * VOICE_MEMO chat message too.
 */
export function VoiceMemoRecorder({
  caseId,
  asChat = false,
  onClose,
}: {
  caseId: () => string | null;
  asChat?: boolean;
  onClose: () => void;
}) {
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<StreamRecorder | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const elapsed = useElapsedSeconds(startedAt);

  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const opened = await openMicrophone();
        if (!current) {
          stopStream(opened);
          return;
        }
        stream.current = opened;
        recorder.current = new StreamRecorder(opened, AUDIO_MIME_TYPES);
        setStartedAt(recorder.current.start());
      } catch (failure) {
        console.warn('voice memo could not start', failure instanceof Error ? failure.name : failure);
        if (current) setProblem(captureErrorText(failure, 'microphone'));
      }
    })();
    return () => {
      current = false;
      recorder.current?.cancel();
      recorder.current = null;
      stopStream(stream.current);
      stream.current = null;
    };
  }, []);

  const stopAndSend = async () => {
    const active = recorder.current;
    const id = caseId();
    if (!active || !id) return;
    setSaving(true);
    try {
      const recording = await active.stop();
      recorder.current = null;
      stopStream(stream.current);
      await enqueueMedia({
        caseId: id,
        eventType: 'voicememo',
        blob: recording.blob,
        lengthSeconds: Math.max(0.1, recording.seconds),
        asChat,
      });
      onClose();
    } catch (failure) {
      console.error('voice memo could not be queued', failure instanceof Error ? failure.name : failure);
      setProblem('The voice memo could not be saved on this device. Please try again.');
      setSaving(false);
    }
  };

  return (
    <Modal
      title="Voice Memo"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => void stopAndSend()}
            disabled={startedAt === null || saving}
            data-autofocus
          >
            {saving ? 'Saving…' : 'Stop and send'}
          </button>
        </>
      }
    >
      <div className="voice-memo">
        <p className="voice-memo__counter" role="timer" aria-label="Recording time">
          {startedAt !== null && <span className="capture__rec-dot" aria-hidden="true" />}
          {formatDuration(elapsed)}
        </p>
        <p className="voice-memo__hint">
          {problem ? '' : startedAt === null ? 'Starting the microphone…' : 'Recording — speak now.'}
        </p>
        {problem && (
          <p className="capture__error capture__error--light" role="alert">
            {problem}
          </p>
        )}
      </div>
    </Modal>
  );
}
