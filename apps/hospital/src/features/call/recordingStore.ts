/**
 * Call recordings kept on the console while they are made (decision 0042): the IndexedDB database
 * `inbound-call-recordings`, so that a tab closed or crashed mid-call loses at most the last second of
 * the recording instead of all of it. What is kept, and why:
 *
 * - `recordings` one row per recorded call (key `callId`): the case, the nurse who answered (only they may
 *                upload it), the upload's Idempotency-Key (fixed when recording starts, so an upload tried
 *                again — by this tab or by the next console start — can never record it twice), the
 *                container type, and `complete` (the recorder stopped when the call ended: not partial).
 * - `chunks`     MediaRecorder's one-second pieces, key `[callId, seq]`, appended as they come. Kept as
 *                ArrayBuffers, not Blobs (they clone the same everywhere, fake-indexeddb too).
 *
 * A row and its chunks are deleted once the server has the recording (or refused it for good). Audio of a
 * call is patient information: nothing here outlives `RECORDING_KEEP_MS` on the device.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export const RECORDINGS_DB_NAME = 'inbound-call-recordings';
/** A recording not uploaded within a day (its nurse never came back to this console) is dropped. */
export const RECORDING_KEEP_MS = 24 * 60 * 60_000;

export interface StoredRecording {
  callId: string;
  caseId: string;
  /** The ED staff member who answered the call: the only one the server takes the recording from. */
  userId: string;
  idempotencyKey: string;
  mimeType: string;
  startedAt: number;
  /** The recorder stopped at the end of the call: everything is here. */
  complete: boolean;
}

interface ChunkRow {
  callId: string;
  seq: number;
  data: ArrayBuffer;
}

interface RecordingsDbSchema extends DBSchema {
  recordings: { key: string; value: StoredRecording };
  chunks: { key: [string, number]; value: ChunkRow };
}

export interface RecordingStore {
  begin(recording: StoredRecording): Promise<void>;
  append(callId: string, seq: number, data: ArrayBuffer): Promise<void>;
  markComplete(callId: string): Promise<void>;
  /** Every recording not yet uploaded, oldest first. */
  list(): Promise<StoredRecording[]>;
  /** The recording's bytes, its chunks in order; null when nothing was kept. */
  read(callId: string): Promise<Blob | null>;
  remove(callId: string): Promise<void>;
}

// A chunk is what was said; flushed to disk before the write counts as done (Chrome's default is relaxed).
const STRICT: IDBTransactionOptions = { durability: 'strict' };
const chunksOf = (callId: string) => IDBKeyRange.bound([callId, 0], [callId, Number.MAX_SAFE_INTEGER]);

export function createRecordingStore(name = RECORDINGS_DB_NAME): RecordingStore {
  let opened: Promise<IDBPDatabase<RecordingsDbSchema>> | null = null;
  const db = () => {
    opened ??= openDB<RecordingsDbSchema>(name, 1, {
      upgrade(database) {
        database.createObjectStore('recordings', { keyPath: 'callId' });
        database.createObjectStore('chunks', { keyPath: ['callId', 'seq'] });
      },
      blocking() {
        // Another tab upgrades the database: close ours, reopen on the next use.
        void opened?.then((d) => d.close());
        opened = null;
      },
    });
    return opened;
  };

  return {
    async begin(recording) {
      await (await db()).put('recordings', recording);
    },
    async append(callId, seq, data) {
      const tx = (await db()).transaction('chunks', 'readwrite', STRICT);
      await Promise.all([tx.store.put({ callId, seq, data }), tx.done]);
    },
    async markComplete(callId) {
      const tx = (await db()).transaction('recordings', 'readwrite', STRICT);
      const row = await tx.store.get(callId);
      if (row) await tx.store.put({ ...row, complete: true });
      await tx.done;
    },
    async list() {
      const rows = await (await db()).getAll('recordings');
      return rows.sort((a, b) => a.startedAt - b.startedAt);
    },
    async read(callId) {
      const database = await db();
      const row = await database.get('recordings', callId);
      const chunks = await database.getAll('chunks', chunksOf(callId));
      if (!row || chunks.length === 0) return null;
      return new Blob(
        chunks.map((c) => c.data),
        { type: row.mimeType },
      );
    },
    async remove(callId) {
      const tx = (await db()).transaction(['recordings', 'chunks'], 'readwrite');
      await Promise.all([
        tx.objectStore('recordings').delete(callId),
        tx.objectStore('chunks').delete(chunksOf(callId)),
        tx.done,
      ]);
    },
  };
}

let shared: RecordingStore | null = null;
/** The console's one store (opened on first use). */
export function recordingStore(): RecordingStore {
  shared ??= createRecordingStore();
  return shared;
}
