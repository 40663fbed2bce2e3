/**
 * Errors from the field (issue 18): the console's uncaught errors go to the Inbound server as ids and
 * codes only (contract: client-errors.ts), never a message that could carry patient data. The console
 * has no service worker and no outbox; the crew app reports those too. One random id in localStorage
 * for the server's per-device limit.
 */
import { CLIENT_VERSION, createFieldErrorReporter, type FieldErrorReporter } from '@inbound/contract';

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

export const reportFieldError: FieldErrorReporter = createFieldErrorReporter({
  app: 'hospital',
  appVersion: CLIENT_VERSION,
  storage,
  // keepalive: a report sent as the page unloads (an update reload) still goes out.
  send: (path, report) =>
    fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
      keepalive: true,
    }),
  pathname: () => window.location.pathname,
});

/** Uncaught errors and unhandled rejections of the page. */
export function reportUncaughtErrors(): void {
  window.addEventListener('error', (event) => reportFieldError('uncaught', { error: event.error }));
  window.addEventListener('unhandledrejection', (event) => reportFieldError('uncaught', { error: event.reason }));
}
