/**
 * Records a call on the console that answered it (issue 12, spec §3 allowsToRecord): the local
 * microphone and the caller's remote track mixed by Web Audio into one MediaStreamDestination, recorded
 * by MediaRecorder (Opus, mono, CALL_RECORDING_BITS_PER_SECOND) in one-second pieces, each kept in
 * IndexedDB as it comes (recordingStore.ts, decision 0042), and uploaded when the call ends as the case's
 * `callrecording` media — the server converts it to MP3. A tab closed mid-call leaves its pieces for the
 * console's next start (recordingUpload.ts). Muting the console's microphone mutes it in the recording
 * too: the recording is what the call carried.
 */
import { CALL_RECORDING_BITS_PER_SECOND } from '@inbound/contract';
import type { RecordingStore } from './recordingStore';
import { uploadRecording, type RecordingLocks, type UploadRecording } from './recordingUpload';

export interface CallRecorder {
  /** The caller's audio, once it arrives. */
  addRemote(stream: MediaStream): void;
  setLocalMuted(muted: boolean): void;
  /** Stops, keeps the last piece, and uploads the whole recording (tried again at the next start if it fails). */
  finish(): Promise<void>;
}

export interface RecordedCall {
  callId: string;
  caseId: string;
  /** The nurse who answered (the only one the server takes the recording from). */
  userId: string;
}

const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'];
const SLICE_MS = 1_000;
const UPLOAD_TRIES = 5;

export function startCallRecorder(
  local: MediaStream,
  call: RecordedCall,
  keep: { store: RecordingStore; locks: RecordingLocks; upload?: UploadRecording },
): CallRecorder {
  const { store, locks, upload = uploadRecording } = keep;
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
  // Held from the first piece until the upload is done: a console starting meanwhile leaves this one be.
  const release = locks.hold(call.callId);
  const recording = {
    ...call,
    idempotencyKey: crypto.randomUUID(),
    mimeType: recorder.mimeType || mimeType || 'audio/webm',
    startedAt: Date.now(),
    complete: false,
  };
  // Every write in order, one after the other: the row, then each piece, then "complete".
  let writes: Promise<unknown> = store.begin(recording).catch(() => undefined);
  const then = (write: () => Promise<unknown>) => {
    writes = writes.then(write).catch(() => undefined); // storage full or gone: the upload at the end still has memory
    return writes;
  };
  const pieces: Blob[] = [];
  let seq = 0;
  recorder.ondataavailable = (event) => {
    if (event.data.size === 0) return;
    pieces.push(event.data);
    const at = (seq += 1);
    void then(async () => store.append(call.callId, at, await event.data.arrayBuffer()));
  };
  recorder.start(SLICE_MS);
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
    async finish() {
      try {
        await new Promise<void>((resolve) => {
          if (recorder.state === 'inactive') return resolve();
          recorder.onstop = () => resolve();
          recorder.stop();
        });
        void context.close().catch(() => undefined);
        await then(() => store.markComplete(call.callId));
        if (pieces.length === 0) {
          await store.remove(call.callId);
          return;
        }
        const blob = new Blob(pieces, { type: recording.mimeType });
        for (let attempt = 0; attempt < UPLOAD_TRIES; attempt += 1) {
          // From memory: whole even if the store could not keep every piece.
          const outcome = await upload(recording, blob, false);
          if (outcome !== 'later') {
            await store.remove(call.callId).catch(() => undefined);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 2_000 * (attempt + 1)));
        }
      } finally {
        release();
      }
    },
  };
}
