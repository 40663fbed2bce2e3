import { useRef, useState } from 'react';
import { enqueueMedia, preparePhoto } from '../mediaQueue';
import { MEDIA_LABEL } from '../mediaModel';
import { CaptureScreen, SwitchCameraButton } from './CaptureScreen';
import { useCamera } from './useCamera';

/**
 * Photo, ID and the EKG picture (spec §2): live preview → Capture → the still → Retake or Use. Use resizes
 * and compresses the still on the device (1440 px long side, JPEG 0.8 — docs/media.md) and queues it; the
 * queue delivers it whenever the network allows.
 */
export function PhotoCapture({
  type,
  caseId,
  onClose,
}: {
  type: 'photo' | 'id' | 'ekg';
  caseId: () => string | null;
  onClose: () => void;
}) {
  const { videoRef, stream, error, opening, canSwitch, switchCamera } = useCamera();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [still, setStill] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  const capture = () => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    if (!video || !canvas || video.videoWidth === 0) return;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    setStill(true);
  };

  const use = async () => {
    const canvas = canvasRef.current;
    const id = caseId();
    if (!canvas || !id) return;
    setSaving(true);
    setSaveError(null);
    try {
      const blob = await preparePhoto(canvas);
      await enqueueMedia({ caseId: id, eventType: type, blob });
      onClose();
    } catch (failure) {
      console.error('photo could not be queued', failure instanceof Error ? failure.name : failure);
      setSaveError('The photo could not be saved on this device. Please try again.');
      setSaving(false);
    }
  };

  const title = type === 'ekg' ? 'EKG picture' : MEDIA_LABEL[type];
  return (
    <CaptureScreen
      title={title}
      onClose={onClose}
      status={
        (error || saveError) && (
          <p className="capture__error" role="alert">
            {error ?? saveError}
          </p>
        )
      }
      actions={
        still ? (
          <>
            <button type="button" className="button button--secondary capture__button" onClick={() => setStill(false)}>
              Retake
            </button>
            <button
              type="button"
              className="button button--primary capture__button"
              onClick={() => void use()}
              disabled={saving}
            >
              {saving ? 'Saving…' : 'Use'}
            </button>
          </>
        ) : (
          <>
            {canSwitch && <SwitchCameraButton onSwitch={switchCamera} disabled={!stream} />}
            <button
              type="button"
              className="capture__shutter"
              onClick={capture}
              disabled={!stream}
              aria-label="Capture"
              data-autofocus
            >
              <span className="capture__shutter-ring" aria-hidden="true" />
            </button>
          </>
        )
      }
    >
      <video
        ref={videoRef}
        className="capture__preview"
        hidden={still}
        autoPlay
        muted
        playsInline
        aria-label="Camera preview"
      />
      <canvas ref={canvasRef} className="capture__still" hidden={!still} aria-label={`${title} taken`} role="img" />
      {opening && !stream && !error && <p className="capture__hint">Starting the camera…</p>}
    </CaptureScreen>
  );
}
