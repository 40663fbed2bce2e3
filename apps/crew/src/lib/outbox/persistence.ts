/**
 * Asks the browser not to evict this site's storage (issue 3: `navigator.storage.persist()`). Without
 * it, a browser short of space may delete IndexedDB — the outbox with it — and the crew must be warned.
 */
export type PersistenceResult = 'granted' | 'denied' | 'unsupported';

export async function requestPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<PersistenceResult> {
  if (!storage || typeof storage.persist !== 'function') return 'unsupported';
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return 'granted';
    return (await storage.persist()) ? 'granted' : 'denied';
  } catch {
    return 'denied';
  }
}
