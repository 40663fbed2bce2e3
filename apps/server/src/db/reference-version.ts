/**
 * Reference data (teams, trucks, hospitals and their statuses, complaint sets, users) cached by the
 * database's reference version: one row that triggers bump in the same transaction as any write to
 * those tables (migration 20261125_0940), so an edit made through any process — or straight in SQL —
 * invalidates every process's caches with its commit.
 *
 * Each request still reads the version (one primary-key row), so an edit is seen by the next request
 * that starts after its commit. Reads of the version are grouped: while one is in flight, requests that
 * arrive wait for the next one, which starts when the current one ends — never joining a read that
 * began before they arrived, which could miss a commit they already saw answered.
 */
import type { Kysely } from 'kysely';
import { prepareQuery } from './prepared.js';
import type { DB } from './schema.js';

export interface ReferenceVersion {
  /** The version as of a read that started after this call. */
  current(): Promise<number>;
}

const perDatabase = new WeakMap<Kysely<DB>, ReferenceVersion>();

/** The reference version of a database: one reader per open database, shared by every repository. */
export function referenceVersionOf(db: Kysely<DB>): ReferenceVersion {
  let version = perDatabase.get(db);
  if (!version) {
    version = createReferenceVersion(db);
    perDatabase.set(db, version);
  }
  return version;
}

function createReferenceVersion(db: Kysely<DB>): ReferenceVersion {
  const readVersion = prepareQuery(
    db,
    (id: number) => db.selectFrom('reference_version').select('version').where('id', '=', id),
    1,
  );
  let inFlight: Promise<number> | null = null;
  let next: Promise<number> | null = null;

  const read = async (): Promise<number> => {
    const [row] = await readVersion(1);
    if (!row) throw new Error('reference_version has no row: migrations not applied');
    return Number(row.version);
  };
  const start = (): Promise<number> => {
    const reading = read().finally(() => {
      if (inFlight === reading) inFlight = null;
    });
    inFlight = reading;
    return reading;
  };

  return {
    current() {
      if (!inFlight) return start();
      // One read is running (it may have begun before this request): wait for the one after it.
      next ??= inFlight.then(
        () => {
          next = null;
          return start();
        },
        () => {
          next = null;
          return start();
        },
      );
      return next;
    },
  };
}

export interface VersionedCache<V> {
  /** The value for `key` as of the current version: from the cache, or loaded and kept. */
  get(key: string, load: () => Promise<V>): Promise<V>;
}

/**
 * Values kept per key with the version they were loaded at; the oldest key goes first past `maxEntries`.
 * Values are deep-frozen: shared between requests, and their identity stands for their content (the
 * serialized-body cache finds a frozen answer by identity).
 */
export function createVersionedCache<V>(version: ReferenceVersion, maxEntries: number): VersionedCache<V> {
  const entries = new Map<string, { version: number; value: V }>();
  return {
    async get(key, load) {
      const current = await version.current();
      const entry = entries.get(key);
      if (entry && entry.version >= current) return entry.value;
      // Loaded after the version was read, so at least as new as it: never an old value under a new version.
      const value = deepFreeze(await load());
      const latest = entries.get(key);
      if (!latest || latest.version <= current) {
        entries.delete(key);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { version: current, value });
      }
      return value;
    },
  };
}

/** Freezes a value all the way down: a cached value is shared between requests and must not change. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
