/**
 * The outbox's IndexedDB database (`inbound-outbox`), its own so that logout, upgrades and a future
 * migration of other stores never touch queued changes. Queries only; the rules are in `outbox.ts`.
 *
 * - `pending`      queued mutations, key `seq` (auto-increment = insertion order), indexed by case and
 *                  by idempotency key. The body is here (small JSON, possibly sealed).
 * - `media`        the bytes of media uploads, by idempotency key, apart from `pending` so that listing
 *                  the queue (every snapshot) never pulls videos into memory. Kept as an ArrayBuffer,
 *                  not a Blob: Safari has had long-lived bugs storing Blobs in IndexedDB, encryption needs
 *                  the bytes anyway, and an ArrayBuffer clones the same everywhere (fake-indexeddb too).
 * - `rejected`     mutations the server refused, with its message, same `seq`, until the crew decides.
 * - `placeholders` placeholder id → real case, so a change queued against a placeholder *after* its case
 *                  was created (the UI had not caught up yet) is rewritten on the way in, not stuck.
 *
 * Writes that hold something the crew entered use `durability: 'strict'`: Chrome's default is relaxed
 * (no flush to disk before `complete`), and "saved on this device" must survive a power cut.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { MutationInfo, PlaceholderResolution, RejectedMutation, SealedBytes } from './types';

export const OUTBOX_DB_VERSION = 1;

export type StoredBytes = { sealed: false; data: ArrayBuffer } | ({ sealed: true } & SealedBytes);
export type StoredBody = { sealed: false; value: unknown } | ({ sealed: true } & SealedBytes);

export interface StoredMediaMeta {
  fileName: string;
  fileField: string;
  fields: Record<string, string>;
  type: string;
  size: number;
}

/** What IndexedDB holds for a queued mutation: what listeners see, plus its (possibly sealed) payload. */
export interface PendingRecord extends Omit<MutationInfo, 'media'> {
  body: StoredBody | null;
  media: StoredMediaMeta | null;
}

export type NewPendingRecord = Omit<PendingRecord, 'seq'>;

export interface RejectedRecord extends PendingRecord {
  status: number;
  message: string;
  rejectedAt: number;
}

export interface MediaRecord {
  key: string;
  bytes: StoredBytes;
}

export interface PlaceholderRecord extends PlaceholderResolution {
  resolvedAt: number;
}

interface OutboxDbSchema extends DBSchema {
  pending: { key: number; value: PendingRecord; indexes: { byCase: string; byKey: string } };
  rejected: { key: number; value: RejectedRecord; indexes: { byCase: string; byKey: string } };
  media: { key: string; value: MediaRecord };
  placeholders: { key: string; value: PlaceholderRecord };
}

export type OutboxDb = IDBPDatabase<OutboxDbSchema>;

const STRICT: IDBTransactionOptions = { durability: 'strict' };

export function openOutboxDb(name: string, onLost: () => void): Promise<OutboxDb> {
  return openDB<OutboxDbSchema>(name, OUTBOX_DB_VERSION, {
    upgrade(db) {
      const pending = db.createObjectStore('pending', { keyPath: 'seq', autoIncrement: true });
      pending.createIndex('byCase', 'caseId');
      pending.createIndex('byKey', 'key', { unique: true });
      const rejected = db.createObjectStore('rejected', { keyPath: 'seq' });
      rejected.createIndex('byCase', 'caseId');
      rejected.createIndex('byKey', 'key', { unique: true });
      db.createObjectStore('media', { keyPath: 'key' });
      db.createObjectStore('placeholders', { keyPath: 'placeholderId' });
    },
    // Another tab wants a newer version: let it (we reopen on next use). Safari may also drop the
    // connection on its own ("terminated"); both just mean "open again next time".
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      onLost();
    },
    terminated: onLost,
  });
}

export function toInfo(record: PendingRecord): MutationInfo {
  const { seq, key, caseId, placeholderId, kind, method, path, createdAt, attempts, nextAttemptAt, lastError } = record;
  const media = record.media
    ? { fields: { ...record.media.fields }, contentType: record.media.type, size: record.media.size }
    : null;
  return { seq, key, caseId, placeholderId, kind, method, path, createdAt, attempts, nextAttemptAt, lastError, media };
}

export function toRejectedInfo(record: RejectedRecord): RejectedMutation {
  return { ...toInfo(record), status: record.status, message: record.message, rejectedAt: record.rejectedAt };
}

/** Replaces the placeholder id in a path, raw or URL-encoded. */
export function rewritePath(path: string, placeholderId: string, caseId: string): string {
  const encoded = encodeURIComponent(placeholderId);
  let result = path.split(placeholderId).join(caseId);
  if (encoded !== placeholderId) result = result.split(encoded).join(encodeURIComponent(caseId));
  return result;
}

function applyResolution(record: NewPendingRecord, resolved: PlaceholderRecord): NewPendingRecord {
  return {
    ...record,
    caseId: resolved.caseId,
    placeholderId: record.caseId,
    path: rewritePath(record.path, record.caseId, resolved.caseId),
  };
}

/**
 * Adds a mutation (and its media bytes) in one strict transaction; resolves once it is on disk.
 * A placeholder already resolved is rewritten to the real id here, in the same transaction.
 */
export async function addPending(
  db: OutboxDb,
  record: NewPendingRecord,
  media: MediaRecord | null,
): Promise<PendingRecord> {
  const [stored] = await addPendingAll(db, [{ record, media }]);
  return stored!;
}

/**
 * Adds mutations numbered in the given order, all or none, in one strict transaction (a tag swap's
 * remove and add: one disk flush instead of two, and never half of a swap).
 */
export async function addPendingAll(
  db: OutboxDb,
  entries: readonly { record: NewPendingRecord; media: MediaRecord | null }[],
): Promise<PendingRecord[]> {
  const tx = db.transaction(['pending', 'media', 'placeholders'], 'readwrite', STRICT);
  const resolutions = new Map<string, PlaceholderRecord | undefined>();
  const stored: PendingRecord[] = [];
  for (const { record, media } of entries) {
    if (!resolutions.has(record.caseId))
      resolutions.set(record.caseId, await tx.objectStore('placeholders').get(record.caseId));
    const resolved = resolutions.get(record.caseId);
    const toStore = resolved ? applyResolution(record, resolved) : record;
    // `seq` is absent so the store assigns the next number.
    const seq = await tx.objectStore('pending').add(toStore as PendingRecord);
    if (media) await tx.objectStore('media').put(media);
    stored.push({ ...toStore, seq });
  }
  await tx.done;
  return stored;
}

export async function listPending(db: OutboxDb): Promise<PendingRecord[]> {
  return db.getAll('pending');
}

/** The real case of a placeholder, once its create was accepted. */
export async function getPlaceholder(db: OutboxDb, placeholderId: string): Promise<PlaceholderRecord | undefined> {
  return db.get('placeholders', placeholderId);
}

export async function listRejected(db: OutboxDb): Promise<RejectedRecord[]> {
  return db.getAll('rejected');
}

/** The oldest pending mutation of a case (index order is case id, then seq). */
export async function firstOfCase(db: OutboxDb, caseId: string): Promise<PendingRecord | undefined> {
  const cursor = await db.transaction('pending').store.index('byCase').openCursor(caseId);
  return cursor?.value;
}

export async function getMedia(db: OutboxDb, key: string): Promise<MediaRecord | undefined> {
  return db.get('media', key);
}

/** Records a failed attempt, unless the mutation is gone meanwhile (delivered by another tab, cleared). */
export async function recordAttempt(
  db: OutboxDb,
  seq: number,
  key: string,
  changes: Pick<PendingRecord, 'attempts' | 'nextAttemptAt' | 'lastError'>,
): Promise<void> {
  const tx = db.transaction('pending', 'readwrite');
  const current = await tx.store.get(seq);
  if (current?.key === key) await tx.store.put({ ...current, ...changes });
  await tx.done;
}

/**
 * The server accepted the mutation: remove it and its media. For a `createCase`, in the same
 * transaction, remember the placeholder's real id and rewrite every queued or rejected mutation of the
 * placeholder to it — so a crash leaves either the old state (the create is resent, its key returns the
 * same answer) or the new one, never half of it.
 */
export async function deliver(
  db: OutboxDb,
  seq: number,
  key: string,
  resolution: PlaceholderResolution | null,
  now: number,
): Promise<void> {
  const tx = db.transaction(['pending', 'rejected', 'media', 'placeholders'], 'readwrite', STRICT);
  const pending = tx.objectStore('pending');
  const current = await pending.get(seq);
  if (current?.key === key) await pending.delete(seq);
  await tx.objectStore('media').delete(key);
  if (resolution) {
    const resolved: PlaceholderRecord = { ...resolution, resolvedAt: now };
    await tx.objectStore('placeholders').put(resolved);
    for (const storeName of ['pending', 'rejected'] as const) {
      const store = tx.objectStore(storeName);
      let cursor = await store.index('byCase').openCursor(resolution.placeholderId);
      while (cursor) {
        await cursor.update(applyResolution(cursor.value, resolved) as PendingRecord & RejectedRecord);
        cursor = await cursor.continue();
      }
    }
  }
  await tx.done;
}

/** Moves a mutation from `pending` to `rejected`; its media stays, so it can still be retried. */
export async function reject(
  db: OutboxDb,
  seq: number,
  key: string,
  outcome: Pick<RejectedRecord, 'status' | 'message' | 'rejectedAt'>,
): Promise<RejectedRecord | null> {
  const tx = db.transaction(['pending', 'rejected'], 'readwrite', STRICT);
  const current = await tx.objectStore('pending').get(seq);
  let rejected: RejectedRecord | null = null;
  if (current?.key === key) {
    rejected = { ...current, ...outcome, lastError: outcome.message };
    await tx.objectStore('pending').delete(seq);
    await tx.objectStore('rejected').put(rejected);
  }
  await tx.done;
  return rejected;
}

/** Puts a rejected mutation back in the queue at its old place, as if new (attempts reset). */
export async function requeueRejected(db: OutboxDb, key: string, now: number): Promise<PendingRecord | null> {
  const tx = db.transaction(['pending', 'rejected', 'placeholders'], 'readwrite', STRICT);
  const rejected = await tx.objectStore('rejected').index('byKey').get(key);
  let requeued: PendingRecord | null = null;
  if (rejected) {
    const { status: _status, message: _message, rejectedAt: _rejectedAt, ...record } = rejected;
    const resolved = await tx.objectStore('placeholders').get(record.caseId);
    const base: PendingRecord = { ...record, attempts: 0, nextAttemptAt: now, lastError: null };
    requeued = resolved ? { ...applyResolution(base, resolved), seq: base.seq } : base;
    await tx.objectStore('rejected').delete(rejected.seq);
    await tx.objectStore('pending').put(requeued);
  }
  await tx.done;
  return requeued;
}

/** Deletes a rejected mutation for good — only ever on the crew's explicit decision. */
export async function deleteRejected(db: OutboxDb, key: string): Promise<boolean> {
  const tx = db.transaction(['rejected', 'media'], 'readwrite', STRICT);
  const rejected = await tx.objectStore('rejected').index('byKey').get(key);
  if (rejected) {
    await tx.objectStore('rejected').delete(rejected.seq);
    await tx.objectStore('media').delete(key);
  }
  await tx.done;
  return rejected !== undefined;
}

/**
 * Forgets a case whose changes have all been delivered (the app's wipe of a closed case): deletes its
 * placeholder → real id records. Refuses, writing nothing, while any change of it is pending or rejected
 * — checked in the same transaction, so a change queued meanwhile is never orphaned.
 */
export async function forgetCase(db: OutboxDb, caseId: string): Promise<boolean> {
  const tx = db.transaction(['pending', 'rejected', 'placeholders'], 'readwrite', STRICT);
  const placeholders = tx.objectStore('placeholders');
  const records = (await placeholders.getAll()).filter((r) => r.caseId === caseId || r.placeholderId === caseId);
  const ids = new Set([caseId, ...records.flatMap((r) => [r.caseId, r.placeholderId])]);
  for (const id of ids) {
    const [pending, rejected] = await Promise.all([
      tx.objectStore('pending').index('byCase').count(id),
      tx.objectStore('rejected').index('byCase').count(id),
    ]);
    if (pending + rejected > 0) {
      await tx.done;
      return false;
    }
  }
  for (const record of records) await placeholders.delete(record.placeholderId);
  await tx.done;
  return true;
}

/** Number of mutations not delivered: pending and rejected. */
export async function countUndelivered(db: OutboxDb): Promise<number> {
  const tx = db.transaction(['pending', 'rejected']);
  const [pending, rejected] = await Promise.all([
    tx.objectStore('pending').count(),
    tx.objectStore('rejected').count(),
  ]);
  await tx.done;
  return pending + rejected;
}

export async function clearAll(db: OutboxDb): Promise<void> {
  const tx = db.transaction(['pending', 'rejected', 'media', 'placeholders'], 'readwrite', STRICT);
  await Promise.all([
    tx.objectStore('pending').clear(),
    tx.objectStore('rejected').clear(),
    tx.objectStore('media').clear(),
    tx.objectStore('placeholders').clear(),
  ]);
  await tx.done;
}
