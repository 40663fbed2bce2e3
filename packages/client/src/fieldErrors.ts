/**
 * Errors from the field (issue 18), for both front ends: uncaught errors (and, in the crew app, failed
 * service-worker updates and changes the server refused from the outbox) go to the Inbound server as
 * ids and codes only (contract: client-errors.ts), never a message that could carry patient data. One
 * random id in localStorage for the server's per-device limit.
 */
import {
  CLIENT_VERSION,
  createFieldErrorReporter,
  type ClientErrorReport,
  type FieldErrorReporter,
} from '@inbound/contract';

export interface BrowserFieldErrors {
  reportFieldError: FieldErrorReporter;
  /** Reports the page's uncaught errors and unhandled rejections. */
  reportUncaughtErrors(): void;
}

/** The app's reporter, bound to this page's localStorage, address and fetch. */
export function createBrowserFieldErrors(app: ClientErrorReport['app']): BrowserFieldErrors {
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();

  const reportFieldError = createFieldErrorReporter({
    app,
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

  return {
    reportFieldError,
    reportUncaughtErrors() {
      window.addEventListener('error', (event) => reportFieldError('uncaught', { error: event.error }));
      window.addEventListener('unhandledrejection', (event) => reportFieldError('uncaught', { error: event.reason }));
    },
  };
}
