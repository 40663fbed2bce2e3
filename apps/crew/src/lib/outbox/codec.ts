/**
 * Encryption at rest for queued changes (issue 3: "Queued patient data at rest is encrypted (AES-GCM,
 * non-extractable key)"). The outbox seals every body and media file before it goes into IndexedDB and
 * opens it just before sending. Ids, paths and timestamps stay readable: the queue must be ordered and
 * counted without the key, and they carry no patient data.
 *
 * The key is the app's: `lib/storage.ts` keeps a non-extractable AES-GCM key in IndexedDB
 * (`getOrCreateStorageKey`). Pass that getter here, so one key protects everything on the device.
 */
import type { OutboxCodec, SealedBytes } from './types';

const IV_BYTES = 12;

export function createAesGcmCodec(getKey: () => Promise<CryptoKey>): OutboxCodec {
  // Kept once known, so that sealing a tap's change is handed to WebCrypto within the tap's own task and
  // runs while the screen renders, rather than one promise turn later, behind the render.
  let known: CryptoKey | null = null;
  const loadKey = (): Promise<CryptoKey> => getKey().then((loaded) => (known = loaded));
  return {
    async seal(plain: Uint8Array): Promise<SealedBytes> {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const data = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv },
        known ?? (await loadKey()),
        plain as BufferSource,
      );
      return { iv, data };
    },
    async open(sealed: SealedBytes): Promise<Uint8Array> {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: sealed.iv as BufferSource },
        known ?? (await loadKey()),
        sealed.data,
      );
      return new Uint8Array(plain);
    },
  };
}
