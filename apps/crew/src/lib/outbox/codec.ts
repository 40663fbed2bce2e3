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
  return {
    async seal(plain: Uint8Array): Promise<SealedBytes> {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await getKey(), plain as BufferSource);
      return { iv, data };
    },
    async open(sealed: SealedBytes): Promise<Uint8Array> {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: sealed.iv as BufferSource },
        await getKey(),
        sealed.data,
      );
      return new Uint8Array(plain);
    },
  };
}
