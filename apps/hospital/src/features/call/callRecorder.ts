/**
 * Records a call on the console that answered it (issue 12, spec §3 allowsToRecord): the local
 * microphone and the caller's remote track mixed by Web Audio into one MediaStreamDestination, recorded
 * by MediaRecorder (Opus, mono, CALL_RECORDING_BITS_PER_SECOND), and uploaded when the call ends as the
 * case's `callrecording` media (multipart: type, callId, data) — the server converts it to MP3.
 * Muting the console's microphone mutes it in the recording too: the recording is what the call carried.
 */
import {
  authorizationHeader,
  buildPath,
  CALL_RECORDING_BITS_PER_SECOND,
  IDEMPOTENCY_KEY_HEADER,
  MEDIA_CALL_ID_FIELD,
  routes,
} from '@inbound/contract';
import { getSession } from '../../lib/session';

export interface CallRecorder {
  /** The caller's audio, once it arrives. */
  addRemote(stream: MediaStream): void;
  setLocalMuted(muted: boolean): void;
  /** Stops and answers what was recorded (null: nothing). */
  stop(): Promise<Blob | null>;
}

const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'];

export function startCallRecorder(local: MediaStream): CallRecorder {
  const context = new AudioContext();
  const destination = context.createMediaStreamDestination();
  destination.channelCount = 1;
  const localGain = context.createGain();
  context.createMediaStreamSource(local).connect(localGain).connect(destination);
  const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(destination.stream, {
    ...(mimeType ? { mimeType } : {}),
    audioBitsPerSecond: CALL_RECORDING_BITS_PER_SECOND,
  });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  recorder.start(1_000);
  const remotes = new Set<string>();
  return {
    addRemote(stream) {
      if (remotes.has(stream.id) || stream.getAudioTracks().length === 0) return;
      remotes.add(stream.id);
      context.createMediaStreamSource(stream).connect(destination);
    },
    setLocalMuted(muted) {
      localGain.gain.value = muted ? 0 : 1;
    },
    stop() {
      return new Promise((resolve) => {
        const done = () => {
          void context.close().catch(() => undefined);
          resolve(chunks.length > 0 ? new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }) : null);
        };
        if (recorder.state === 'inactive') return done();
        recorder.onstop = done;
        recorder.stop();
      });
    },
  };
}

/** Uploads the recording as the case's `callrecording` (retried a few times with the same key). */
export async function uploadCallRecording(caseId: string, callId: string, blob: Blob): Promise<void> {
  const key = crypto.randomUUID();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const token = getSession()?.token;
    if (!token) return;
    const form = new FormData();
    form.append('type', 'callrecording');
    form.append(MEDIA_CALL_ID_FIELD, callId);
    form.append('data', blob, 'call.webm');
    try {
      const res = await fetch(buildPath(routes.uploadMedia.path, { id: caseId }), {
        method: 'POST',
        headers: {
          Authorization: authorizationHeader(token),
          [IDEMPOTENCY_KEY_HEADER]: key,
          'Created-At': new Date().toISOString(),
        },
        body: form,
      });
      if (res.ok || (res.status >= 400 && res.status < 500)) return;
    } catch {
      // no connection: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000 * (attempt + 1)));
  }
}
