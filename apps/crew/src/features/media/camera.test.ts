import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@inbound/contract';
import { captureErrorText, MediaCaptureUnsupportedError, nextCameraId, openCamera } from './camera';
import { pickMimeType } from './recorder';

const camera = (deviceId: string) =>
  ({ kind: 'videoinput', deviceId, label: deviceId, groupId: '' }) as MediaDeviceInfo;

function fakeStream(deviceId: string): MediaStream {
  const track = { stop: vi.fn(), getSettings: () => ({ deviceId }) };
  return { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream;
}

function stubDevices(getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>) {
  const devices = {
    getUserMedia: vi.fn(getUserMedia),
    enumerateDevices: vi.fn(async () => [camera('back'), camera('front')]),
  };
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: devices });
  return devices;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('openCamera', () => {
  it('asks for the back camera first', async () => {
    const devices = stubDevices(async () => fakeStream('back'));
    const opened = await openCamera();
    expect(opened.deviceId).toBe('back');
    const video = devices.getUserMedia.mock.calls[0]![0].video as MediaTrackConstraints;
    expect(video.facingMode).toEqual({ ideal: 'environment' });
  });

  it('tries the next camera when one fails, and only logs the failure (§8)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const devices = stubDevices(async (constraints) => {
      const wanted = ((constraints.video as MediaTrackConstraints).deviceId as { exact?: string } | undefined)?.exact;
      if (wanted === 'front') return fakeStream('front');
      throw new DOMException('Could not start video source', 'NotReadableError');
    });
    const opened = await openCamera();
    expect(opened.deviceId).toBe('front');
    expect(devices.getUserMedia).toHaveBeenCalledTimes(3); // default, back, front
    expect(warn).toHaveBeenCalled();
  });

  it("says 'getUserMedia is not implemented in this browser' without getUserMedia", async () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    const failure = await openCamera().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaCaptureUnsupportedError);
    expect(captureErrorText(failure, 'camera')).toBe('getUserMedia is not implemented in this browser');
    expect(captureErrorText(new Error('x'), 'camera')).toBe(messages.cameraUnavailable);
  });
});

describe('camera switch and recording type', () => {
  it('goes round the cameras', () => {
    const list = [camera('a'), camera('b'), camera('c')];
    expect(nextCameraId(list, 'a')).toBe('b');
    expect(nextCameraId(list, 'c')).toBe('a');
    expect(nextCameraId(list, null)).toBe('a');
    expect(nextCameraId([], 'a')).toBeNull();
  });

  it('prefers H.264 in MP4, then WebM, asking the browser', () => {
    const types = ['video/mp4;codecs=avc1,opus', 'video/webm;codecs=vp8,opus'];
    expect(pickMimeType(types, () => true)).toBe('video/mp4;codecs=avc1,opus');
    expect(pickMimeType(types, (type) => type.startsWith('video/webm'))).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType(types, () => false)).toBeUndefined();
  });
});
