/**
 * What happens when a new version of the app is waiting (spec §4 "Service worker"): the alert 'New
 * version available. Reloading page...', then the new service worker takes over and the page reloads.
 * Safe for the crew's data: every case change is in the local store and the outbox (IndexedDB) before
 * the screen shows it, and the reloaded page picks both up. Never in the middle of a call, consult or
 * recording (`busy.ts`): the alert and the reload wait until those end.
 *
 * Pure wiring, no service-worker API: `registerServiceWorker.ts` plugs Workbox in, tests plug fakes in.
 */
import { messages } from '@inbound/contract';

export interface UpdateFlowDeps {
  /** Resolves when nothing that a reload would break is going on. */
  whenIdle(): Promise<void>;
  showAlert(message: string): void;
  /** Tells the waiting service worker to take over (Workbox: `messageSkipWaiting()`). */
  activate(): void;
  reload(): void;
  /** How long the alert is readable before the new version takes over. */
  alertMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Time the alert stays on screen before the switch (the spec's alert is informative, not a question). */
export const UPDATE_ALERT_MS = 2_000;

export interface UpdateFlow {
  /** A new service worker is installed and waiting. */
  onWaiting(): Promise<void>;
  /** A new service worker took control of this page (ours, or another tab activated it). */
  onControlling(): Promise<void>;
}

export function createUpdateFlow(deps: UpdateFlowDeps): UpdateFlow {
  const alertMs = deps.alertMs ?? UPDATE_ALERT_MS;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let announcing: Promise<void> | null = null;
  let reloading = false;

  return {
    onWaiting() {
      announcing ??= (async () => {
        await deps.whenIdle();
        deps.showAlert(messages.newVersion);
        await sleep(alertMs);
        // A call may have started while the alert showed.
        await deps.whenIdle();
        deps.activate();
      })().finally(() => {
        announcing = null;
      });
      return announcing;
    },
    async onControlling() {
      if (reloading) return;
      await deps.whenIdle();
      if (reloading) return;
      reloading = true;
      deps.reload();
    },
  };
}
