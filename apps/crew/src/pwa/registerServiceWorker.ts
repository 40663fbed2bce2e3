/**
 * Registers the service worker (vite-plugin-pwa's generated `/sw.js`, see vite.config.ts and README
 * "PWA") and wires the update flow and Background Sync. Loaded by `main.tsx` through a dynamic import
 * after the first render, so Workbox's page code is not part of the login screen's JavaScript.
 * Production builds only: `vite dev` serves no service worker, and Vitest (jsdom) has none.
 */
import { Workbox } from 'workbox-window';
import { showAlert } from '../lib/alerts';
import { reportFieldError } from '../lib/fieldErrors';
import { startBackgroundSync } from './backgroundSync';
import { whenIdle } from './busy';
import { createUpdateFlow } from './updateFlow';

/** A tab left open for a shift still hears about a new version (the browser checks on navigations only). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let registered = false;

export function registerServiceWorker(): void {
  if (registered || !import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    return;
  }
  registered = true;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  const flow = createUpdateFlow({
    whenIdle,
    showAlert: (message) => showAlert(message),
    activate: () => workbox.messageSkipWaiting(),
    reload: () => window.location.reload(),
  });
  workbox.addEventListener('waiting', () => {
    flow.onWaiting().catch((error: unknown) => {
      console.error('the new version could not be activated', error);
      reportFieldError('sw_update_failed', { error, code: 'activate' });
    });
  });
  // A new version took over a page that ran under an older one (from this tab or another): reload. The
  // first install claiming this page is not a new version. (Workbox's own `controlling` event calls a
  // page that was first installed in this session "not an update", so it is not used here.)
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    const wasControlled = controlled;
    controlled = true;
    if (wasControlled) void flow.onControlling();
  });
  startBackgroundSync(navigator.serviceWorker, async () => {
    const { caseOutbox } = await import('../lib/caseOutbox');
    await caseOutbox.flush();
  });
  workbox
    .register()
    .then(() => {
      setInterval(() => {
        workbox.update().catch((error: unknown) => {
          console.info('service worker update check failed', error);
          // Offline is the normal case in an ambulance, not a failure worth reporting.
          if (navigator.onLine) reportFieldError('sw_update_failed', { error, code: 'update' });
        });
      }, UPDATE_CHECK_MS);
    })
    .catch((error: unknown) => {
      console.error('the service worker could not be registered', error);
      reportFieldError('sw_update_failed', { error, code: 'register' });
    });
}
