/**
 * The crew's device: the app's real outbox (`createOutbox`, `createFetchTransport`) on an IndexedDB
 * database (fake-indexeddb in Node), wired as `lib/caseOutbox.ts` wires it — the placeholder answer
 * applied to the local case, and at start `resolvePlaceholder` for a case still under its placeholder.
 * Time and timers are the outbox test kit's manual ones, so back-off waits only when the schedule says.
 *
 * A restart is a crash of the page: the outbox is stopped (requests in flight are abandoned — the server
 * may still commit them — and nothing more is written to IndexedDB) and a new one opens the same database.
 */
import { createFetchTransport } from '../../apps/crew/src/lib/outbox/fetchTransport';
import { createOutbox, type Outbox } from '../../apps/crew/src/lib/outbox/outbox';
import { createManualTime, type ManualTime } from '../../apps/crew/src/lib/outbox/outbox.testkit';
import type { OutboxEvent } from '../../apps/crew/src/lib/outbox/types';
import type { CrewCase } from './case-changes';

export interface CrewDevice {
  readonly outbox: Outbox;
  readonly time: ManualTime;
  /** Where `online` comes from, as `window` in the app. */
  readonly browser: EventTarget;
  restart(): Promise<void>;
  /** Stops the outbox and deletes its database. */
  dispose(): Promise<void>;
}

export async function openCrewDevice(options: {
  dbName: string;
  token: string;
  fetch: typeof fetch;
  /** The app's local cases: a placeholder answer is applied to them. */
  cases: readonly CrewCase[];
}): Promise<CrewDevice> {
  const time = createManualTime();
  const browser = new EventTarget();
  const transport = createFetchTransport({ getToken: () => options.token, fetch: options.fetch });

  const applyResolution = (placeholderId: string, caseId: string) => {
    const local = options.cases.find((c) => c.placeholderId === placeholderId);
    if (local) local.realId = caseId;
  };
  const onEvent = (event: OutboxEvent) => {
    if (event.type === 'placeholder-resolved') applyResolution(event.placeholderId, event.caseId);
  };

  async function open(): Promise<Outbox> {
    const outbox = createOutbox({
      transport,
      dbName: options.dbName,
      locks: null,
      broadcastChannel: null,
      events: browser,
      isBrowserOnline: () => true,
      isVisible: () => true,
      clock: time.clock,
      timers: time.timers,
      random: () => 0.5,
    });
    outbox.subscribe(onEvent);
    await outbox.start();
    // As `startCaseOutbox`: the page that got the create's answer may have died before saving it.
    for (const local of options.cases) {
      if (local.realId !== null) continue;
      const resolution = await outbox.resolvePlaceholder(local.placeholderId);
      if (resolution) applyResolution(local.placeholderId, resolution.caseId);
    }
    return outbox;
  }

  let outbox = await open();
  return {
    get outbox() {
      return outbox;
    },
    time,
    browser,
    async restart() {
      await outbox.stop();
      outbox = await open();
    },
    async dispose() {
      await outbox.stop();
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(options.dbName);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error ?? new Error('deleteDatabase failed'));
      });
    },
  };
}
