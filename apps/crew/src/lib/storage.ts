/**
 * What the crew app keeps on the device, where, and why (decision 0007).
 *
 * One IndexedDB database, `inbound-local`:
 * - **`values`**, one record per key: everything spec §3 lists as stored locally — the JWT and its
 *   expiry (`jwt`), `user`, `teams`, `selectedTeam`, `selectedTruck`, `autoLogoutTime` (HH:mm:ss, as the
 *   spec says) with `autoLogoutAt` (the full instant, so a shift that ends after midnight is known to
 *   end tomorrow), `case`, `caseActive`, `complaintSet` (the team's, so a case started with no coverage
 *   has its list), `caseFeedbackPending`, `caseTransfer`, `pushToken`, and per user id `doNotDisturb`
 *   and `emtLevel`; plus `messageCenterLastOpened` (what counts as unread) and `closedCases` (closed
 *   cases still to be wiped once delivered: ids and case numbers only) and `handoffWatch` (the closed
 *   case's hand-over on Start: an opaque server token and the hospital's name, decision 0038). It survives reloads and app
 *   kills, so the crew comes back to where they were after a crash in a moving ambulance.
 * - **`keys`**: in production builds, the AES-GCM key that seals every value above (`v1.<iv>.<data>`, a
 *   fresh 96-bit IV per write). It is generated on this device as *non-extractable*: script can use it
 *   but never read it, so a copy of the data without this browser profile's key store is useless.
 *   IndexedDB is the only storage that can keep a `CryptoKey` as such.
 * - Development builds store plain JSON text, so the values can be inspected in the browser's tools.
 *
 * Values that cannot be read back (a lost key, a tampered record) are dropped: the crew signs in again.
 * `clear()` (logout) deletes the values and the key in one transaction, keeping only what it is given
 * (sealed under a new key); the next write otherwise makes a new key. The outbox keeps
 * its own database; the service-worker cache (later) its own cache.
 */
import { openDB, type IDBPDatabase } from 'idb';

export const LOCAL_DB_NAME = 'inbound-local';
const VALUES = 'values';
const KEYS = 'keys';
const KEY_ID = 'local-data';
const CIPHER_VERSION = 'v1';

/** Reads and writes JSON values by key; the encryption (or not) is inside. */
export interface LocalData {
  get(key: string): Promise<unknown>;
  /** `undefined` removes the entry. */
  set(key: string, value: unknown): Promise<void>;
  /** Every stored key. */
  keys(): Promise<string[]>;
  /** The stored form of a value (ciphertext in production), for tests and debugging. */
  raw(key: string): Promise<string | undefined>;
  /**
   * Deletes every value and the encryption key, keeping only `keep`'s values (sealed under a new key), in
   * one transaction: a page closed in the middle leaves everything as it was or the wiped state, never half.
   */
  clear(keep?: Record<string, unknown>): Promise<void>;
}

export interface LocalDataOptions {
  encrypted: boolean;
  dbName?: string;
}

export function createLocalData({ encrypted, dbName = LOCAL_DB_NAME }: LocalDataOptions): LocalData {
  let database: Promise<IDBPDatabase> | null = null;
  let cryptoKey: Promise<CryptoKey> | null = null;

  const db = () => {
    database ??= openDB(dbName, 1, {
      upgrade(upgradeDb) {
        upgradeDb.createObjectStore(VALUES);
        upgradeDb.createObjectStore(KEYS);
      },
    });
    database.catch(() => {
      database = null;
    });
    return database;
  };

  const key = () => {
    cryptoKey ??= (async () => {
      const existing = (await (await db()).get(KEYS, KEY_ID)) as CryptoKey | undefined;
      if (existing) return existing;
      const created = await generateKey();
      await (await db()).put(KEYS, created, KEY_ID);
      return created;
    })();
    cryptoKey.catch(() => {
      cryptoKey = null;
    });
    return cryptoKey;
  };

  const raw = async (name: string) => (await (await db()).get(VALUES, name)) as string | undefined;

  return {
    raw,
    async get(name) {
      const stored = await raw(name);
      if (stored === undefined) return undefined;
      try {
        return JSON.parse(encrypted ? await decryptText(await key(), stored) : stored) as unknown;
      } catch {
        await (await db()).delete(VALUES, name);
        return undefined;
      }
    },
    async set(name, value) {
      if (value === undefined) {
        await (await db()).delete(VALUES, name);
        return;
      }
      const text = JSON.stringify(value);
      await (await db()).put(VALUES, encrypted ? await encryptText(await key(), text) : text, name);
    },
    async keys() {
      return (await (await db()).getAllKeys(VALUES)).map(String);
    },
    async clear(keep = {}) {
      const handle = await db();
      const kept = Object.entries(keep);
      // Sealed before the transaction opens: IndexedDB commits a transaction as soon as it waits on
      // anything that is not its own request.
      const freshKey = encrypted && kept.length > 0 ? await generateKey() : null;
      const sealed = await Promise.all(
        kept.map(async ([name, value]) => {
          const text = JSON.stringify(value);
          return [name, freshKey ? await encryptText(freshKey, text) : text] as const;
        }),
      );
      const transaction = handle.transaction([VALUES, KEYS], 'readwrite');
      const values = transaction.objectStore(VALUES);
      const keys = transaction.objectStore(KEYS);
      await Promise.all([
        values.clear(),
        keys.clear(),
        ...(freshKey ? [keys.put(freshKey, KEY_ID)] : []),
        ...sealed.map(([name, text]) => values.put(text, name)),
        transaction.done,
      ]);
      cryptoKey = freshKey ? Promise.resolve(freshKey) : null;
    },
  };
}

/** A non-extractable AES-GCM key: script can seal and open with it, never read it. */
function generateKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `v1.<iv>.<ciphertext>`, both base64; a fresh 96-bit IV per value, as AES-GCM requires. */
export async function encryptText(key: CryptoKey, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plain));
  return `${CIPHER_VERSION}.${toBase64(iv)}.${toBase64(new Uint8Array(cipher))}`;
}

export async function decryptText(key: CryptoKey, stored: string): Promise<string> {
  const [version, iv, data] = stored.split('.');
  if (version !== CIPHER_VERSION || !iv || !data) throw new Error('not an encrypted value');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, key, fromBase64(data));
  return new TextDecoder().decode(plain);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The app's store: encrypted in production builds, plain in development (spec §9). */
export const localData = createLocalData({ encrypted: import.meta.env.PROD });
