/**
 * Sending a call's recording to the server (the case's `callrecording` media, multipart: type, callId,
 * partial, data) and sending what a closed or crashed console left behind (decision 0042).
 *
 * The recording tab holds a Web Lock named after the call from the first second of recording until its
 * upload is done; a console starting later uploads only recordings whose lock is free — their tab is gone.
 * Web Locks exist wherever the console can record at all (getUserMedia needs a secure context too).
 */
import {
  authorizationHeader,
  buildPath,
  IDEMPOTENCY_KEY_HEADER,
  MEDIA_CALL_ID_FIELD,
  MEDIA_PARTIAL_FIELD,
  routes,
} from '@inbound/contract';
import { getSession } from '../../lib/session';
import { RECORDING_KEEP_MS, type RecordingStore, type StoredRecording } from './recordingStore';

/** `stored`: the server has it; `refused`: it never will (a 4xx): drop it; `later`: keep it, try again later. */
export type UploadOutcome = 'stored' | 'refused' | 'later';

export type UploadRecording = (recording: StoredRecording, blob: Blob, partial: boolean) => Promise<UploadOutcome>;

/** Statuses worth another try: the session ended (401), a timeout, a rate limit. */
const TRY_AGAIN = new Set([401, 408, 429]);

export const uploadRecording: UploadRecording = async (recording, blob, partial) => {
  const token = getSession()?.token;
  if (!token) return 'later';
  const form = new FormData();
  form.append('type', 'callrecording');
  form.append(MEDIA_CALL_ID_FIELD, recording.callId);
  if (partial) form.append(MEDIA_PARTIAL_FIELD, 'true');
  form.append('data', blob, 'call.webm');
  try {
    const res = await fetch(buildPath(routes.uploadMedia.path, { id: recording.caseId }), {
      method: 'POST',
      headers: {
        Authorization: authorizationHeader(token),
        [IDEMPOTENCY_KEY_HEADER]: recording.idempotencyKey,
        'Created-At': new Date(recording.startedAt).toISOString(),
      },
      body: form,
    });
    if (res.ok) return 'stored';
    return res.status >= 400 && res.status < 500 && !TRY_AGAIN.has(res.status) ? 'refused' : 'later';
  } catch {
    return 'later'; // no connection
  }
};

/** Who holds a recording: the tab recording it, until its upload is done. */
export interface RecordingLocks {
  /** Held until the returned function is called (or the tab goes). */
  hold(callId: string): () => void;
  /** Runs `work` holding the call's lock when no tab holds it; false when one does. */
  ifFree(callId: string, work: () => Promise<void>): Promise<boolean>;
}

const lockName = (callId: string) => `inbound-call-recording:${callId}`;

export const webLocks: RecordingLocks = {
  hold(callId) {
    if (!('locks' in navigator)) return () => undefined;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    void navigator.locks.request(lockName(callId), () => held);
    return release;
  },
  async ifFree(callId, work) {
    if (!('locks' in navigator)) {
      await work();
      return true;
    }
    return navigator.locks.request(lockName(callId), { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await work();
      return true;
    });
  },
};

/**
 * Sends the kept recording of `callId` (its bytes read back from the store) and forgets it once the
 * server has it or refused it; kept when the server could not be reached.
 */
export async function sendKept(
  store: RecordingStore,
  recording: StoredRecording,
  upload: UploadRecording,
): Promise<UploadOutcome> {
  const blob = await store.read(recording.callId);
  if (!blob) {
    await store.remove(recording.callId);
    return 'refused';
  }
  const outcome = await upload(recording, blob, !recording.complete);
  if (outcome !== 'later') await store.remove(recording.callId);
  return outcome;
}

/**
 * At the console's start (a sign-in): the recordings this user's closed or crashed tabs left, uploaded —
 * a partial one marked so — with the Idempotency-Key each got when it started. Others' recordings wait for
 * their nurse; any older than RECORDING_KEEP_MS is dropped unsent.
 */
export async function sendLeftRecordings(options: {
  store: RecordingStore;
  locks: RecordingLocks;
  userId: string;
  now: number;
  upload?: UploadRecording;
}): Promise<{ sent: number; dropped: number; waiting: number }> {
  const { store, locks, userId, now, upload = uploadRecording } = options;
  const result = { sent: 0, dropped: 0, waiting: 0 };
  for (const recording of await store.list()) {
    if (now - recording.startedAt > RECORDING_KEEP_MS) {
      await store.remove(recording.callId);
      result.dropped += 1;
      continue;
    }
    if (recording.userId !== userId) {
      result.waiting += 1;
      continue;
    }
    let outcome: UploadOutcome = 'later';
    const free = await locks.ifFree(recording.callId, async () => {
      outcome = await sendKept(store, recording, upload);
    });
    if (!free || outcome === 'later') result.waiting += 1;
    else if (outcome === 'stored') result.sent += 1;
    else result.dropped += 1;
  }
  return result;
}
