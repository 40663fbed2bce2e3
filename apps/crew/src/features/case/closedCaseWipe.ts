/**
 * Wipes a closed case from the device once everything of it has reached the server (issue 3): what the
 * hospital needs is on the server, and a lost tablet must not carry yesterday's patients. Nothing is
 * wiped that the server does not have yet.
 *
 * Where a case lives on this device, and when each place lets go of it:
 * - the session's `case` (IndexedDB `inbound-local`, `values/case`): cleared at close, because the case
 *   screen is gone; what still has to reach the server is in the outbox, not there;
 * - the outbox (`inbound-outbox`): each change (with its patient data) is deleted as it is delivered; a
 *   refused change stays until the crew retries or discards it. The wipe then drops the case's
 *   placeholder → real id record (`forgetCase`, which refuses while anything of the case waits);
 * - the TanStack Query cache: every query whose key names the case;
 * - the service worker's runtime caches: every entry of the case's URLs (`WIPE_CASE`);
 * - `closedCases` (session): the case's entry — id, case number, close time — removed last.
 * The feedback prompt (`caseFeedbackPending`: case id and hospital name) is the crew's to answer; it
 * holds no patient data and goes when they do.
 *
 * "Delivered" is read from the outbox's database after every change tapped so far has been queued, not
 * from a snapshot, and re-checked by `forgetCase` in the transaction that deletes. The wipe runs when the
 * outbox starts (a page that closed a case offline and was reloaded still wipes later), whenever the
 * outbox's counts change, and whenever a case is closed.
 */
import type { Query, QueryClient } from '@tanstack/react-query';
import { applyPlaceholderResolution, caseOutbox } from '../../lib/caseOutbox';
import { isPlaceholderId, type Outbox } from '../../lib/outbox';
import { queryClient as appQueryClient } from '../../lib/queryClient';
import { useSession } from '../../lib/session';
import { wipeCaseFromServiceWorkerCache } from '../../pwa/swMessages';
import { whenChangesQueued as appWhenChangesQueued } from './mutations';

export interface ClosedCaseWipeDeps {
  outbox: Pick<
    Outbox,
    'snapshot' | 'subscribeSnapshot' | 'listPending' | 'listRejected' | 'resolvePlaceholder' | 'forgetCase'
  >;
  queryClient: QueryClient;
  wipeServiceWorkerCache: (caseIds: readonly string[]) => Promise<unknown>;
  /** Resolves once every change tapped so far is in the outbox. */
  whenChangesQueued: () => Promise<void>;
}

const appDeps: ClosedCaseWipeDeps = {
  outbox: caseOutbox,
  queryClient: appQueryClient,
  wipeServiceWorkerCache: wipeCaseFromServiceWorkerCache,
  whenChangesQueued: appWhenChangesQueued,
};

/** True when a query key names one of the cases: an id as a key part, or inside a case URL. */
export function queryKeyNamesCase(key: unknown, caseIds: readonly string[]): boolean {
  if (typeof key === 'string') {
    return caseIds.some((id) => key === id || new RegExp(`/twiageCases/${escapeRegExp(id)}(?:[/?]|$)`).test(key));
  }
  if (Array.isArray(key)) return key.some((part) => queryKeyNamesCase(part, caseIds));
  if (key !== null && typeof key === 'object') return Object.values(key).some((v) => queryKeyNamesCase(v, caseIds));
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Wipes every closed case whose changes have all been delivered; returns the ids it wiped. Does nothing
 * before the outbox has read its database.
 */
export async function wipeDeliveredClosedCases(deps: ClosedCaseWipeDeps = appDeps): Promise<string[]> {
  const { outbox } = deps;
  if (useSession.getState().closedCases.length === 0 || !outbox.snapshot().ready) return [];
  // A close lists the case, then queues arrivedAt in the same task: let it join the queue before asking
  // the queue whether anything of the case is still to be queued.
  await Promise.resolve();
  await deps.whenChangesQueued();
  const [pending, rejected] = await Promise.all([outbox.listPending(), outbox.listRejected()]);
  const waiting = new Set([...pending, ...rejected].map((change) => change.caseId));
  const wiped: string[] = [];

  for (const closed of useSession.getState().closedCases) {
    const ids = [closed.id];
    if (isPlaceholderId(closed.id)) {
      // Closed before the create was answered: its changes now go under the real id.
      const resolution = await outbox.resolvePlaceholder(closed.id);
      if (resolution) {
        applyPlaceholderResolution(resolution);
        ids.push(resolution.caseId);
      }
    }
    if (ids.some((id) => waiting.has(id))) continue;
    // The same case open again (e.g. received back by transfer) is not a closed case.
    const active = useSession.getState().case;
    if (active && ids.includes(active.id)) continue;
    let forgotten = true;
    for (const id of ids) forgotten = (await outbox.forgetCase(id)) && forgotten;
    // A change of it was queued meanwhile: keep everything until that one is delivered too.
    if (!forgotten) continue;

    deps.queryClient.removeQueries({ predicate: (query: Query) => queryKeyNamesCase(query.queryKey, ids) });
    void deps.wipeServiceWorkerCache(ids);
    useSession.setState((state) => ({ closedCases: state.closedCases.filter((item) => !ids.includes(item.id)) }));
    wiped.push(...ids);
  }
  return wiped;
}

/**
 * Keeps wiping delivered closed cases for the life of the page (main.tsx starts it). One pass at a time;
 * a trigger during a pass runs one more. Returns a function that stops it.
 */
export function startClosedCaseWipe(deps: ClosedCaseWipeDeps = appDeps): () => void {
  let running: Promise<void> | null = null;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await wipeDeliveredClosedCases(deps);
        } catch (error) {
          // Nothing is lost: the case stays listed and the next trigger tries again.
          console.error('wiping a closed case failed', error);
        }
      } while (again);
      running = null;
    })();
  };
  const stopSnapshot = deps.outbox.subscribeSnapshot(run);
  const stopSession = useSession.subscribe((state, previous) => {
    if (state.closedCases !== previous.closedCases && state.closedCases.length > 0) run();
  });
  run();
  return () => {
    stopSnapshot();
    stopSession();
  };
}
