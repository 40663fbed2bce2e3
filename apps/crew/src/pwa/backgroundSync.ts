/**
 * Background Sync (spec §4 "Service worker"): after coming back online, a sync tag `inbound-case-{id}`
 * is registered for the active case; when it fires, the service worker asks the pages to flush the
 * outbox (public/sw-extensions.js). A bonus where the browser has it (Chromium): the outbox itself
 * flushes on start, `online`, visibility and a timer. Failures and connection changes are only logged
 * (spec §8).
 */
import { useSession } from '../lib/session';
import { SW_MESSAGE } from './swMessages';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

export function caseSyncTag(caseId: string): string {
  return `inbound-case-${caseId}`;
}

/** Registers the case's sync tag if the browser has Background Sync; resolves to whether it did. */
export async function registerCaseSync(
  caseId: string,
  registration: ServiceWorkerRegistration | undefined,
): Promise<boolean> {
  const sync = (registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync;
  if (!sync) {
    console.info('background sync not available; the outbox flushes on its own');
    return false;
  }
  try {
    await sync.register(caseSyncTag(caseId));
    return true;
  } catch (error) {
    console.info('background sync registration failed; the outbox flushes on its own', error);
    return false;
  }
}

/** The active case's id, if a case is open. */
function activeCaseId(): string | null {
  const { caseActive, case: current } = useSession.getState();
  return caseActive && current ? current.id : null;
}

/**
 * Wires `online` → sync registration and the service worker's flush message → `caseOutbox.flush()`.
 * Returns a function that removes the listeners.
 */
export function startBackgroundSync(container: ServiceWorkerContainer, flushOutbox: () => Promise<void>): () => void {
  const onOnline = () => {
    console.info('connection: online');
    const caseId = activeCaseId();
    if (!caseId) return;
    void container
      .getRegistration()
      .then((registration) => registerCaseSync(caseId, registration))
      .catch((error: unknown) => console.info('background sync registration failed', error));
  };
  const onOffline = () => console.info('connection: offline');
  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || !('type' in data) || data.type !== SW_MESSAGE.flushOutbox) return;
    console.info('background sync fired', 'tag' in data ? data.tag : undefined);
    flushOutbox().catch((error: unknown) => console.warn('outbox flush after background sync failed', error));
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  container.addEventListener('message', onMessage);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    container.removeEventListener('message', onMessage);
  };
}
