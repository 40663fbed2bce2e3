import { useEffect, useRef, useState } from 'react';
import { captureErrorText, listCameras, nextCameraId, openCamera, stopStream, type OpenedCamera } from '../camera';

/** Opens the camera; for a video, with the microphone if it can be had, else without sound. */
async function acquire(deviceId: string | null, audio: boolean): Promise<OpenedCamera> {
  try {
    return await openCamera({ deviceId, audio });
  } catch (error) {
    if (!audio) throw error;
    console.warn('no microphone for the video; recording without sound');
    return openCamera({ deviceId, audio: false });
  }
}

interface Opened {
  stream: MediaStream;
  deviceId: string | null;
}

/**
 * A camera for the lifetime of a capture screen: opened on mount (the back camera, or the next one that
 * works), shown in `videoRef`, switched on request, and every track stopped when the screen goes or the
 * camera changes. `audio` adds the microphone (video).
 */
export function useCamera({ audio = false }: { audio?: boolean } = {}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  /** The camera asked for: null = the back camera; a switch sets the next one. */
  const [requested, setRequested] = useState<{ deviceId: string | null }>({ deviceId: null });
  const [opened, setOpened] = useState<Opened | null>(null);
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    let stream: MediaStream | null = null;
    void (async () => {
      try {
        const camera = await acquire(requested.deviceId, audio);
        if (!current) {
          stopStream(camera.stream);
          return;
        }
        stream = camera.stream;
        setOpened({ stream: camera.stream, deviceId: camera.deviceId });
        setError(null);
        // Labels and the full list come once permission is granted.
        const found = await listCameras();
        if (current) setCameras(found);
      } catch (failure) {
        console.warn('capture could not start', failure instanceof Error ? failure.name : failure);
        if (current) setError(captureErrorText(failure, 'camera'));
      }
    })();
    return () => {
      current = false;
      stopStream(stream);
    };
  }, [requested, audio]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !opened) return;
    video.srcObject = opened.stream;
    void video.play?.()?.catch(() => undefined);
  }, [opened]);

  const switchCamera = () => {
    const next = nextCameraId(cameras, opened?.deviceId ?? null);
    if (!next || next === opened?.deviceId) return;
    setOpened(null);
    setRequested({ deviceId: next });
  };

  return {
    videoRef,
    stream: opened?.stream ?? null,
    error,
    opening: opened === null && error === null,
    canSwitch: cameras.length > 1,
    switchCamera,
  };
}
