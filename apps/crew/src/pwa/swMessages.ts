/**
 * The page's side of the messages to and from the service worker (public/sw-extensions.js). No
 * dependencies and no Workbox: `logout()` uses it, and logout is part of the first screen's code.
 * Everything is feature-detected: jsdom (Vitest), `vite dev` and old browsers have no service worker.
 */

/** Message types shared with public/sw-extensions.js (a classic script: keep the strings in sync). */
export const SW_MESSAGE = {
  /** page → service worker: delete the runtime caches (logout); the precache stays. */
  clearRuntimeCache: 'CLEAR_RUNTIME_CACHE',
  /** page → service worker: delete the runtime-cache entries of these (closed, delivered) cases. */
  wipeCase: 'WIPE_CASE',
  /** service worker → pages: a background sync fired; flush the outbox. */
  flushOutbox: 'FLUSH_OUTBOX',
} as const;

/** Runtime cache names start with this (vite.config.ts `runtimeCaching`). */
export const RUNTIME_CACHE_PREFIX = 'inbound-runtime-';

function serviceWorkerContainer(): ServiceWorkerContainer | null {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
}

/**
 * Asks the service worker to delete its runtime caches (the team, hospital statuses and complaint set
 * it kept for offline starts). Resolves to whether a service worker was asked; never rejects.
 */
export async function clearServiceWorkerRuntimeCache(): Promise<boolean> {
  try {
    const container = serviceWorkerContainer();
    if (!container) return false;
    const worker = container.controller ?? (await container.getRegistration())?.active ?? null;
    if (!worker) return false;
    worker.postMessage({ type: SW_MESSAGE.clearRuntimeCache });
    return true;
  } catch (error) {
    console.warn('could not ask the service worker to clear its runtime cache', error);
    return false;
  }
}

/**
 * Asks the service worker to delete whatever its runtime caches hold of these cases (closedCaseWipe).
 * Resolves to whether a service worker was asked; never rejects.
 */
export async function wipeCaseFromServiceWorkerCache(caseIds: readonly string[]): Promise<boolean> {
  try {
    const container = serviceWorkerContainer();
    if (!container) return false;
    const worker = container.controller ?? (await container.getRegistration())?.active ?? null;
    if (!worker) return false;
    worker.postMessage({ type: SW_MESSAGE.wipeCase, caseIds: [...caseIds] });
    return true;
  } catch (error) {
    console.warn('could not ask the service worker to wipe a closed case', error);
    return false;
  }
}
