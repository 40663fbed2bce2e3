/**
 * MediaRecorder with an explicit codec string (docs/media.md, decision 0011): the server converts what the
 * browser records — H.264 is remuxed in well under a second, anything else transcoded. So the first
 * choice is H.264 (Chromium records `video/mp4;codecs=avc1,opus`; plain `video/mp4` would be VP9), then
 * WebM. A voice memo is Opus in WebM (§9), converted to MP3 on the server.
 */
import { useEffect, useState } from 'react';

export const VIDEO_MIME_TYPES = [
  'video/mp4;codecs=avc1,opus',
  'video/webm;codecs=h264,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm',
  'video/mp4',
] as const;

export const AUDIO_MIME_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/webm'] as const;

export function hasMediaRecorder(): boolean {
  return typeof MediaRecorder !== 'undefined';
}

/** The first type the browser records, or undefined (the recorder then picks its default). */
export function pickMimeType(
  candidates: readonly string[],
  isSupported: (type: string) => boolean = (type) => MediaRecorder.isTypeSupported(type),
): string | undefined {
  return candidates.find((type) => {
    try {
      return isSupported(type);
    } catch {
      return false;
    }
  });
}

export interface Recording {
  blob: Blob;
  /** Seconds between start and stop, to one decimal. */
  seconds: number;
  mimeType: string;
}

/** One recording of a stream: start, then stop (the file) or cancel (nothing). */
export class StreamRecorder {
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private startedAt = 0;

  constructor(stream: MediaStream, candidates: readonly string[]) {
    const mimeType = pickMimeType(candidates);
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    });
  }

  start(): number {
    // A slice each second: the file grows while recording instead of arriving in one piece at stop.
    this.recorder.start(1_000);
    this.startedAt = Date.now();
    return this.startedAt;
  }

  get recording(): boolean {
    return this.recorder.state === 'recording';
  }

  stop(): Promise<Recording> {
    const seconds = Math.round((Date.now() - this.startedAt) / 100) / 10;
    return new Promise((resolve, reject) => {
      if (this.recorder.state === 'inactive') {
        reject(new Error('The recorder was not running.'));
        return;
      }
      this.recorder.addEventListener(
        'stop',
        () => {
          // What the recorder reports is what it wrote (codec parameters included).
          const mimeType = this.recorder.mimeType || this.chunks[0]?.type || '';
          resolve({ blob: new Blob(this.chunks, { type: mimeType }), seconds, mimeType });
        },
        { once: true },
      );
      this.recorder.stop();
    });
  }

  cancel(): void {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    this.chunks.length = 0;
  }
}

/** Whole seconds since `startedAt`, updated each second (§9 voice memo counter); 0 while not running. */
export function useElapsedSeconds(startedAt: number | null): number {
  // A `now` from before `startedAt` reads 0 (the clamp below), so no reset is needed at a new start.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt === null ? 0 : Math.max(0, Math.floor((now - startedAt) / 1_000));
}

/** `m:ss`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
