/**
 * Opening the camera and the microphone (spec §8: a camera that fails → the next one is tried, the error
 * only logged; no getUserMedia → 'getUserMedia is not implemented in this browser'). The back camera is
 * asked for first: the crew photographs the patient, the ID and the 12-lead, not themselves.
 */
import { messages } from '@inbound/contract';

export class MediaCaptureUnsupportedError extends Error {
  constructor() {
    super(messages.getUserMediaMissing);
    this.name = 'MediaCaptureUnsupportedError';
  }
}

export function hasGetUserMedia(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/** Stops every track: the camera light goes off and the device is free for the next screen. */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/** The device's cameras (labels only once permission is granted; ids are enough to switch). */
export async function listCameras(): Promise<MediaDeviceInfo[]> {
  if (typeof navigator.mediaDevices?.enumerateDevices !== 'function') return [];
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((device) => device.kind === 'videoinput' && device.deviceId !== '');
  } catch (error) {
    console.warn('camera list unavailable', errorName(error));
    return [];
  }
}

export interface OpenedCamera {
  stream: MediaStream;
  /** The camera in use (the track's deviceId), to switch from. */
  deviceId: string | null;
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function videoConstraint(deviceId: string | null): MediaTrackConstraints {
  const size = { width: { ideal: 1920 }, height: { ideal: 1080 } };
  return deviceId ? { ...size, deviceId: { exact: deviceId } } : { ...size, facingMode: { ideal: 'environment' } };
}

function trackDeviceId(stream: MediaStream): string | null {
  const settings = stream.getVideoTracks()[0]?.getSettings?.();
  return settings?.deviceId ?? null;
}

/**
 * Opens a camera: `deviceId` when given, else the back camera. When it fails, every other camera is tried
 * in turn (§8); the failures are logged, not shown. Throws the last error when none opens, and
 * `MediaCaptureUnsupportedError` when the browser has no getUserMedia.
 */
export async function openCamera({
  deviceId = null,
  audio = false,
}: { deviceId?: string | null; audio?: boolean } = {}): Promise<OpenedCamera> {
  if (!hasGetUserMedia()) throw new MediaCaptureUnsupportedError();
  const media = navigator.mediaDevices;
  let lastError: unknown;
  try {
    const stream = await media.getUserMedia({ video: videoConstraint(deviceId), audio });
    return { stream, deviceId: trackDeviceId(stream) ?? deviceId };
  } catch (error) {
    lastError = error;
    console.warn('camera failed, trying the next one', errorName(error));
  }
  for (const camera of await listCameras()) {
    if (camera.deviceId === deviceId) continue;
    try {
      const stream = await media.getUserMedia({ video: videoConstraint(camera.deviceId), audio });
      return { stream, deviceId: camera.deviceId };
    } catch (error) {
      lastError = error;
      console.warn('camera failed, trying the next one', errorName(error));
    }
  }
  throw lastError instanceof Error ? lastError : new Error('No camera could be opened.');
}

/** The microphone alone (voice memo). */
export async function openMicrophone(): Promise<MediaStream> {
  if (!hasGetUserMedia()) throw new MediaCaptureUnsupportedError();
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
}

/** The camera after `current` in the list, wrapping round (the switch button). */
export function nextCameraId(cameras: readonly MediaDeviceInfo[], current: string | null): string | null {
  if (cameras.length === 0) return null;
  const index = cameras.findIndex((camera) => camera.deviceId === current);
  return cameras[(index + 1) % cameras.length]?.deviceId ?? null;
}

/** What to show when capture cannot start: the spec's text without getUserMedia, else ours. */
export function captureErrorText(error: unknown, kind: 'camera' | 'microphone'): string {
  if (error instanceof MediaCaptureUnsupportedError) return messages.getUserMediaMissing;
  return kind === 'camera' ? messages.cameraUnavailable : messages.microphoneUnavailable;
}
