import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { validateSession } from './features/auth/session';
import { reportUncaughtErrors } from './lib/fieldErrors';
import { hydrateSession, useSession } from './lib/session';
import { caseScreenExpected, rememberCaseScreen } from './routing/caseScreenHint';
import { paths } from './routing/paths';
import { rememberSignedIn } from './routing/signedInHint';
import { createAppRouter, preloadCasePage, preloadStartPage } from './routing/routes';
import './styles.css';

/** Reads what is stored on the device (decrypting it in production), checks the token, then routes. */
async function main(): Promise<void> {
  reportUncaughtErrors();
  // The outbox starts before any screen's data is used, signed in or not (queued changes wait under a 401
  // hold). Loaded on demand: it and the contract's schemas are not part of the first screen's code. With
  // a case open (a restart in the ambulance) its chunks are fetched now, beside the case screen's, while
  // the stored session is read; otherwise once the first screen has painted (issue 16, item 11: on a
  // cellular link they would delay Start's and login's first paint). Nothing waits on it to be kept: every
  // change is in IndexedDB before it is acknowledged, and start() sends what earlier pages left.
  const caseFirst = caseScreenExpected();
  let outboxCode: Promise<typeof import('./lib/caseOutbox')> | null = null;
  let wipeCode: Promise<typeof import('./features/case/closedCaseWipe')> | null = null;
  const loadOutbox = () => {
    outboxCode ??= import('./lib/caseOutbox');
    // Closed cases are wiped from the device once the outbox has delivered all their changes.
    wipeCode ??= import('./features/case/closedCaseWipe');
    // A failed load is reported where it is started; until then it is not unhandled.
    outboxCode.catch(() => undefined);
    wipeCode.catch(() => undefined);
  };
  if (caseFirst) loadOutbox();
  // A restart with a case open (offline, in the ambulance) goes straight to the case screen: its code
  // loads beside the outbox's and while the session is decrypted, not after the first render asks for it.
  let firstScreenCode: Promise<unknown> = Promise.resolve();
  if (caseFirst) preloadCasePage();
  else if (!__INBOUND_DESKTOP__ && window.location.pathname === paths.start) firstScreenCode = preloadStartPage();
  // Start's code is awaited with the session (it never rejects): the screen then draws in the first
  // render, and until then the page shows start.html's static Start shell (decision 0043) or index.html's
  // login splash, not a spinner in between.
  const session = hydrateSession().catch((error: unknown) =>
    console.error('stored session could not be read; starting signed out', error),
  );
  await Promise.all([session, firstScreenCode]);
  validateSession();
  // No hint (first start after an update, storage cleared): still load it before the first render.
  if (useSession.getState().caseActive) preloadCasePage();
  rememberCaseScreen(useSession.getState().caseActive);
  rememberSignedIn(useSession.getState().jwt !== null);
  useSession.subscribe((state, previous) => {
    if (state.caseActive !== previous.caseActive) rememberCaseScreen(state.caseActive);
    if ((state.jwt === null) !== (previous.jwt === null)) rememberSignedIn(state.jwt !== null);
  });
  const startOutbox = () => {
    loadOutbox();
    void outboxCode
      ?.then(({ startCaseOutbox }) => startCaseOutbox())
      .catch((error: unknown) => console.error('the outbox could not start', error));
    void wipeCode
      ?.then(({ startClosedCaseWipe }) => startClosedCaseWipe())
      .catch((error: unknown) => console.error('the closed-case wipe could not start', error));
  };
  // No hint but a case in the stored session (first start after an update): at once, as with the hint.
  if (caseFirst || useSession.getState().caseActive) startOutbox();
  // Desktop: the host's live GPS (the vehicle modem's fixes) from the first screen on. Not in the web build.
  if (__INBOUND_DESKTOP__)
    void import('./features/gps/desktopGps')
      .then((m) => m.startDesktopGps())
      .catch((error: unknown) => console.error('the desktop GPS link could not start', error));
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  const app = createRoot(root);
  startTransition(() =>
    app.render(
      <StrictMode>
        <App router={createAppRouter(__INBOUND_DESKTOP__ ? 'hash' : 'history')} />
      </StrictMode>,
    ),
  );
  if (!caseFirst && !useSession.getState().caseActive) void firstScreenCode.finally(() => afterFirstPaint(startOutbox));
  // The service worker (offline start, new versions) after the first screen: Workbox's page code is a
  // lazy chunk, and registering does not compete with the first render. Production builds only.
  if (import.meta.env.PROD)
    afterFirstRender(() => void import('./pwa/registerServiceWorker').then((m) => m.registerServiceWorker()));
}

/**
 * After the first screen has painted (called once its code is in): the first frame after the current
 * one, then a task. A hidden tab draws no frames, so at the latest after 1 s.
 */
function afterFirstPaint(callback: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    callback();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 1_000);
}

function afterFirstRender(callback: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 3_000 });
  else setTimeout(callback, 1_000);
}

void main();
