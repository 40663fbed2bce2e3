/**
 * Whether the browser agreed to keep this site's storage (`navigator.storage.persist()`). Without it a
 * browser short of space may evict IndexedDB — the outbox with the changes not sent yet — so Start warns
 * the crew (features/start/StorageWarning). The answer is asked once per page by `checkStoragePersistence`
 * (lib/caseOutbox calls it at start); the crew's "Dismiss" lasts for the browser session (the tab), so a
 * reload for a new version does not bring it back, but the next time the app is opened does.
 */
import { create } from 'zustand';
import { requestPersistentStorage, type PersistenceResult } from './outbox/persistence';

const DISMISSED_KEY = 'inbound.storageWarningDismissed';

interface StoragePersistenceState {
  /** null until the browser has answered. */
  result: PersistenceResult | null;
  dismissed: boolean;
}

function readDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export const useStoragePersistence = create<StoragePersistenceState>()(() => ({
  result: null,
  dismissed: readDismissed(),
}));

/** Asks for persistent storage and records the answer; a refusal is also logged (no patient data). */
export async function checkStoragePersistence(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<PersistenceResult> {
  const result = await requestPersistentStorage(storage);
  if (result === 'denied') {
    console.warn('persistent storage refused: the browser may evict queued changes under storage pressure');
  }
  useStoragePersistence.setState({ result });
  return result;
}

/** The crew has read the warning: hide it for the rest of this browser session. */
export function dismissStorageWarning(): void {
  try {
    sessionStorage.setItem(DISMISSED_KEY, '1');
  } catch {
    // Private modes may refuse; it is then hidden until the page reloads.
  }
  useStoragePersistence.setState({ dismissed: true });
}

/** The warning shows only after a refusal: "unsupported" browsers have no way to ask, so no advice helps. */
export function shouldWarnAboutStorage(state: StoragePersistenceState): boolean {
  return state.result === 'denied' && !state.dismissed;
}

/** Tests: forget the answer and the dismissal. */
export function resetStoragePersistenceForTests(): void {
  try {
    sessionStorage.removeItem(DISMISSED_KEY);
  } catch {
    // nothing stored
  }
  useStoragePersistence.setState({ result: null, dismissed: false }, false);
}
