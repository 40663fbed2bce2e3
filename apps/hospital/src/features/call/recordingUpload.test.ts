// The call recordings a console keeps while recording (recordingStore.ts, on fake-indexeddb) and what its
// next start sends of them (recordingUpload.ts), with a fake server and fake locks (decision 0042).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createRecordingStore, RECORDING_KEEP_MS, type StoredRecording } from './recordingStore';
import { sendLeftRecordings, type RecordingLocks, type UploadOutcome, type UploadRecording } from './recordingUpload';

const NOW = Date.parse('2026-11-27T16:00:00Z');
let dbCount = 0;
const freshStore = () => createRecordingStore(`recordings-test-${(dbCount += 1)}`);

const bytes = (...values: number[]) => new Uint8Array(values).buffer;

function recording(callId: string, changes: Partial<StoredRecording> = {}): StoredRecording {
  return {
    callId,
    caseId: `case-of-${callId}`,
    userId: 'nurse-1',
    idempotencyKey: `key-${callId}`,
    mimeType: 'audio/webm;codecs=opus',
    startedAt: NOW - 60_000,
    complete: false,
    ...changes,
  };
}

/** Locks held by live tabs: those calls' recordings are being made (or uploaded) elsewhere. */
function fakeLocks(held: string[] = []): RecordingLocks {
  const taken = new Set(held);
  return {
    hold(callId) {
      taken.add(callId);
      return () => taken.delete(callId);
    },
    async ifFree(callId, work) {
      if (taken.has(callId)) return false;
      taken.add(callId);
      try {
        await work();
      } finally {
        taken.delete(callId);
      }
      return true;
    },
  };
}

interface Sent {
  callId: string;
  key: string;
  partial: boolean;
  bytes: number[];
  type: string;
}

/** A server answering `answers` in turn (then 'stored'), remembering what it was sent. */
function fakeServer(answers: UploadOutcome[] = []) {
  const sent: Sent[] = [];
  const upload: UploadRecording = async (r, blob, partial) => {
    sent.push({
      callId: r.callId,
      key: r.idempotencyKey,
      partial,
      bytes: [...new Uint8Array(await blob.arrayBuffer())],
      type: blob.type,
    });
    return answers.shift() ?? 'stored';
  };
  return { sent, upload };
}

describe('the recording store', () => {
  it('keeps the pieces in recording order, whatever order the writes land in, and forgets them on remove', async () => {
    const store = freshStore();
    await store.begin(recording('c1'));
    await store.append('c1', 2, bytes(3, 4));
    await store.append('c1', 1, bytes(1, 2));
    await store.append('c1', 10, bytes(9));
    const blob = await store.read('c1');
    expect([...new Uint8Array(await blob!.arrayBuffer())]).toEqual([1, 2, 3, 4, 9]);
    expect(blob!.type).toBe('audio/webm;codecs=opus');

    await store.markComplete('c1');
    expect(await store.list()).toEqual([recording('c1', { complete: true })]);
    await store.remove('c1');
    expect(await store.list()).toEqual([]);
    expect(await store.read('c1')).toBeNull();
  });

  it("keeps each call's pieces apart and lists the oldest first", async () => {
    const store = freshStore();
    await store.begin(recording('late', { startedAt: NOW - 1_000 }));
    await store.begin(recording('early', { startedAt: NOW - 9_000 }));
    await store.append('late', 1, bytes(7));
    await store.append('early', 1, bytes(5));
    await store.remove('early');
    expect((await store.list()).map((r) => r.callId)).toEqual(['late']);
    expect([...new Uint8Array(await (await store.read('late'))!.arrayBuffer())]).toEqual([7]);
  });
});

describe('sending what a closed console left', () => {
  it("sends this nurse's cut-short recording as partial with the key it got when recording started, then forgets it", async () => {
    const store = freshStore();
    await store.begin(recording('c1'));
    await store.append('c1', 1, bytes(1));
    await store.append('c1', 2, bytes(2));
    const server = fakeServer();
    const result = await sendLeftRecordings({
      store,
      locks: fakeLocks(),
      userId: 'nurse-1',
      now: NOW,
      upload: server.upload,
    });
    expect(result).toEqual({ sent: 1, dropped: 0, waiting: 0 });
    expect(server.sent).toEqual([
      { callId: 'c1', key: 'key-c1', partial: true, bytes: [1, 2], type: 'audio/webm;codecs=opus' },
    ]);
    expect(await store.list()).toEqual([]);
  });

  it('sends a finished recording whose upload was cut off as whole, not partial', async () => {
    const store = freshStore();
    await store.begin(recording('c1'));
    await store.append('c1', 1, bytes(1));
    await store.markComplete('c1');
    const server = fakeServer();
    await sendLeftRecordings({ store, locks: fakeLocks(), userId: 'nurse-1', now: NOW, upload: server.upload });
    expect(server.sent.map((s) => s.partial)).toEqual([false]);
  });

  it('leaves alone a recording another tab is still making, and those of other nurses', async () => {
    const store = freshStore();
    await store.begin(recording('live'));
    await store.append('live', 1, bytes(1));
    await store.begin(recording('theirs', { userId: 'nurse-2' }));
    await store.append('theirs', 1, bytes(2));
    const server = fakeServer();
    const result = await sendLeftRecordings({
      store,
      locks: fakeLocks(['live']),
      userId: 'nurse-1',
      now: NOW,
      upload: server.upload,
    });
    expect(result).toEqual({ sent: 0, dropped: 0, waiting: 2 });
    expect(server.sent).toEqual([]);
    expect((await store.list()).map((r) => r.callId).sort()).toEqual(['live', 'theirs']);
  });

  it('keeps a recording the server could not take and sends it again, same key, at the next start', async () => {
    const store = freshStore();
    await store.begin(recording('c1'));
    await store.append('c1', 1, bytes(1));
    const server = fakeServer(['later']);
    const options = { store, locks: fakeLocks(), userId: 'nurse-1', now: NOW, upload: server.upload };
    expect(await sendLeftRecordings(options)).toEqual({ sent: 0, dropped: 0, waiting: 1 });
    expect(await store.list()).toHaveLength(1);
    expect(await sendLeftRecordings(options)).toEqual({ sent: 1, dropped: 0, waiting: 0 });
    expect(server.sent.map((s) => s.key)).toEqual(['key-c1', 'key-c1']);
    expect(await store.list()).toEqual([]);
  });

  it('drops a recording the server refused for good, one with no piece, and one older than a day unsent', async () => {
    const store = freshStore();
    await store.begin(recording('refused'));
    await store.append('refused', 1, bytes(1));
    await store.begin(recording('empty'));
    await store.begin(recording('old', { startedAt: NOW - RECORDING_KEEP_MS - 1 }));
    await store.append('old', 1, bytes(1));
    const server = fakeServer(['refused']);
    const result = await sendLeftRecordings({
      store,
      locks: fakeLocks(),
      userId: 'nurse-1',
      now: NOW,
      upload: server.upload,
    });
    expect(result).toEqual({ sent: 0, dropped: 3, waiting: 0 });
    expect(server.sent.map((s) => s.callId)).toEqual(['refused']);
    expect(await store.list()).toEqual([]);
  });
});
