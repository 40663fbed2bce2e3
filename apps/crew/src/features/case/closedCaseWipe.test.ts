// The wipe of a closed case: nothing goes before the server has every change of the case (pending or
// refused), then every trace goes — the outbox's records, the query cache, the service worker's entries,
// the closed-case entry — also across a reload, and for a case closed before its create was answered.
import { openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { flushSessionWrites, hydrateSession, resetSessionForTests, useSession } from '../../lib/session';
import { createLocalData } from '../../lib/storage';
import { mockFetch, type MockAnswer } from '../../test/fetchMock';
import { caseTeam, complaintSet, localCase, signedInSession } from '../../test/fixtures';
import {
  queryKeyNamesCase,
  startClosedCaseWipe,
  wipeDeliveredClosedCases,
  type ClosedCaseWipeDeps,
} from './closedCaseWipe';
import { closeCase, enqueueInOrder, savePatientInfo, setAge, tapGender, whenChangesQueued } from './mutations';
import { startCase } from './startCase';

const accepted: MockAnswer = { body: { id: 'case-1', event: null } };

function deps(): ClosedCaseWipeDeps & { wipeServiceWorkerCache: ReturnType<typeof vi.fn> } {
  return {
    outbox: caseOutbox,
    queryClient,
    wipeServiceWorkerCache: vi.fn(async () => true),
    whenChangesQueued,
  };
}

/** A server whose answers the test switches: offline first. */
function switchableServer(routes: string[], answer: () => MockAnswer) {
  return mockFetch(Object.fromEntries(routes.map((route) => [route, () => answer()])));
}

async function deliver() {
  await whenChangesQueued();
  await caseOutbox.flush();
  await caseOutbox.whenIdle();
}

/** Every record of the outbox's database, of every store: what a lost tablet would still hold. */
async function outboxRecords(): Promise<unknown[]> {
  const db = await openDB('inbound-outbox');
  const records: unknown[] = [];
  for (const name of Array.from(db.objectStoreNames)) records.push(...(await db.getAll(name)));
  db.close();
  return records;
}

let stopWipe: (() => void) | null = null;

beforeEach(async () => {
  await caseOutbox.clear();
  queryClient.clear();
});

afterEach(async () => {
  stopWipe?.();
  stopWipe = null;
  await caseOutbox.stop();
  vi.unstubAllGlobals();
});

describe('wiping a closed case', () => {
  it('keeps it while a change waits, then wipes every trace once the server has them all', async () => {
    let online = false;
    switchableServer(['PATCH /v4/twiageCases/case-1', 'PUT /v4/twiageCases/case-1/dynamicForms/pif'], () =>
      online ? accepted : 'network-error',
    );
    resetSessionForTests({
      ...signedInSession(),
      selectedTeam: caseTeam,
      complaintSet,
      case: localCase(),
      caseActive: true,
    });
    queryClient.setQueryData(['caseMedia', 'case-1'], ['photo']);
    queryClient.setQueryData(['request', '/v4/twiageCases/case-1?uniquevalue=1'], { id: 'case-1' });
    queryClient.setQueryData(['teams'], ['riverside']);
    await caseOutbox.start();
    const wipe = deps();

    await setAge(67, 3);
    await savePatientInfo('pif', [{ key: 'firstName', value: 'Zebulon' }]);
    await closeCase();
    await deliver();
    expect(useSession.getState()).toMatchObject({ case: null, caseActive: false });
    expect(useSession.getState().closedCases).toEqual([
      { id: 'case-1', caseNumber: 'RV-7K2', closedAt: expect.any(String) as string },
    ]);
    expect(await wipeDeliveredClosedCases(wipe)).toEqual([]);
    expect((await caseOutbox.listPending('case-1')).map((change) => change.kind)).toEqual([
      'patchCase',
      'dynamicForm',
      'patchCase',
    ]);
    expect(JSON.stringify(await outboxRecords())).toContain('Zebulon');
    expect(queryClient.getQueryData(['caseMedia', 'case-1'])).toEqual(['photo']);
    expect(wipe.wipeServiceWorkerCache).not.toHaveBeenCalled();

    online = true;
    await deliver();
    expect(await wipeDeliveredClosedCases(wipe)).toEqual(['case-1']);
    expect(useSession.getState().closedCases).toEqual([]);
    expect(await outboxRecords()).toEqual([]);
    expect(queryClient.getQueryData(['caseMedia', 'case-1'])).toBeUndefined();
    expect(queryClient.getQueryData(['request', '/v4/twiageCases/case-1?uniquevalue=1'])).toBeUndefined();
    expect(queryClient.getQueryData(['teams'])).toEqual(['riverside']);
    expect(wipe.wipeServiceWorkerCache).toHaveBeenCalledWith(['case-1']);
  });

  it('keeps a closed case while the server refuses one of its changes, and wipes it once the crew discards it', async () => {
    mockFetch({ 'PATCH /v4/twiageCases/case-1': { status: 400, body: { message: 'age is out of range' } } });
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    await caseOutbox.start();
    const wipe = deps();

    await tapGender('F');
    await closeCase();
    await deliver();
    const refused = await caseOutbox.listRejected();
    expect(refused).toHaveLength(2);
    expect(await wipeDeliveredClosedCases(wipe)).toEqual([]);
    expect(useSession.getState().closedCases).toHaveLength(1);

    for (const change of refused) await caseOutbox.discardRejected(change.key);
    expect(await wipeDeliveredClosedCases(wipe)).toEqual(['case-1']);
    expect(useSession.getState().closedCases).toEqual([]);
  });

  it('a refused hand-over watch does not hold the closed case: it gives way and the case is wiped', async () => {
    mockFetch({
      'PATCH /v4/twiageCases/case-1': accepted,
      'POST /v4/twiageCases/case-1/handoff-watch': {
        status: 409,
        body: { message: 'The case has no destination on the platform: there is no hand-over to follow.' },
      },
    });
    resetSessionForTests({
      ...signedInSession(),
      case: localCase({ destinationHospital: { id: 'rrmc' } }),
      caseActive: true,
    });
    await caseOutbox.start();
    const wipe = deps();

    await closeCase();
    await deliver();
    await waitFor(async () => expect(await caseOutbox.listRejected()).toEqual([]));
    expect(useSession.getState().handoffWatch).toBeNull();
    expect(await wipeDeliveredClosedCases(wipe)).toEqual(['case-1']);
    expect(useSession.getState().closedCases).toEqual([]);
  });

  it('a case closed offline before its create was answered: kept across a reload, wiped after delivery', async () => {
    let online = false;
    const createdAt = new Date().toISOString();
    mockFetch({
      'POST /v4/twiageCases': () =>
        online
          ? {
              status: 201,
              body: { id: 'case-9', caseNumber: 'RV-9ZZ', channelId: 'case:case-9', ownedBy: 'u-medic1', createdAt },
            }
          : 'network-error',
      'PATCH /v4/twiageCases/case-9': () => (online ? accepted : 'network-error'),
    });
    const store = createLocalData({ encrypted: false, dbName: 'wipe-reload-test' });
    await hydrateSession(store);
    useSession.setState({ ...signedInSession(), complaintSet });
    await caseOutbox.start();
    const wipe = deps();

    await startCase();
    const placeholderId = useSession.getState().case?.id ?? '';
    expect(placeholderId).toMatch(/^placeholder-/);
    await setAge(67, 3);
    await closeCase();
    await deliver();
    // The feedback prompt names the case too; it follows the placeholder to the real id.
    useSession.setState({ caseFeedbackPending: { caseId: placeholderId, hospitalName: 'Riverside' } });
    expect(await wipeDeliveredClosedCases(wipe)).toEqual([]);

    // Reload: a new page reads the device's stores again.
    await caseOutbox.stop();
    await flushSessionWrites();
    expect(await store.keys()).toContain('closedCases');
    expect(await store.keys()).not.toContain('case');
    resetSessionForTests();
    await hydrateSession(store);
    expect(useSession.getState().closedCases).toEqual([
      { id: placeholderId, caseNumber: '...', closedAt: expect.any(String) as string },
    ]);

    online = true;
    stopWipe = startClosedCaseWipe(wipe);
    await caseOutbox.start();
    await waitFor(() => expect(useSession.getState().closedCases).toEqual([]));
    // The answer to the create renamed the closed case's entry: it is wiped under the real id.
    expect(wipe.wipeServiceWorkerCache).toHaveBeenCalledWith(['case-9']);
    expect(useSession.getState().caseFeedbackPending).toEqual({ caseId: 'case-9', hospitalName: 'Riverside' });
    expect(await caseOutbox.resolvePlaceholder(placeholderId)).toBeNull();
    expect(await outboxRecords()).toEqual([]);
    await flushSessionWrites();
    expect(await store.keys()).not.toContain('closedCases');
  });

  it('follows a placeholder answered by a page that died before saving the answer', async () => {
    const createdAt = new Date().toISOString();
    mockFetch({
      'POST /v4/twiageCases': {
        status: 201,
        body: { id: 'case-7', caseNumber: 'RV-7AA', channelId: 'case:case-7', ownedBy: 'u-medic1', createdAt },
      },
    });
    resetSessionForTests({ ...signedInSession() });
    await caseOutbox.start();
    const placeholderId = 'placeholder-1763766000000';
    await enqueueInOrder([
      caseMutations.createCase(placeholderId, { emsAgency: 'riverside', truck: 't-medic1', beganAt: createdAt }),
    ]);
    await deliver();
    expect(await caseOutbox.resolvePlaceholder(placeholderId)).toMatchObject({ caseId: 'case-7' });
    // What the next page reads from storage: the closed case still under its placeholder id.
    useSession.setState({ closedCases: [{ id: placeholderId, caseNumber: '...', closedAt: createdAt }] });
    const wipe = deps();

    expect(await wipeDeliveredClosedCases(wipe)).toEqual([placeholderId, 'case-7']);
    expect(wipe.wipeServiceWorkerCache).toHaveBeenCalledWith([placeholderId, 'case-7']);
    expect(useSession.getState().closedCases).toEqual([]);
    expect(await caseOutbox.resolvePlaceholder(placeholderId)).toBeNull();
    expect(await outboxRecords()).toEqual([]);
  });

  it('runs by itself: a close that is delivered at once is wiped without anyone asking', async () => {
    mockFetch({ 'PATCH /v4/twiageCases/case-1': accepted });
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    await caseOutbox.start();
    stopWipe = startClosedCaseWipe(deps());
    await closeCase();
    await waitFor(() => expect(useSession.getState().closedCases).toEqual([]));
    expect(await caseOutbox.pendingCount()).toBe(0);
  });
});

describe('outbox forgetCase', () => {
  it('refuses, deleting nothing, while a change of the case waits', async () => {
    let online = false;
    mockFetch({ 'PATCH /v4/twiageCases/case-1': () => (online ? accepted : 'network-error') });
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    await caseOutbox.start();
    await enqueueInOrder([caseMutations.patchCase('case-1', { gender: 'M' })]);
    await deliver();
    expect(await caseOutbox.forgetCase('case-1')).toBe(false);
    expect(await caseOutbox.listPending('case-1')).toHaveLength(1);
    online = true;
    await deliver();
    expect(await caseOutbox.forgetCase('case-1')).toBe(true);
  });
});

describe('queryKeyNamesCase', () => {
  it('finds the case id as a key part, nested, or as a case URL; not as part of another id', () => {
    expect(queryKeyNamesCase(['media', 'case-1'], ['case-1'])).toBe(true);
    expect(queryKeyNamesCase(['chat', { caseId: 'case-1' }], ['case-1'])).toBe(true);
    expect(queryKeyNamesCase(['/v4/twiageCases/case-1/chat?x=1'], ['case-1'])).toBe(true);
    expect(queryKeyNamesCase(['/v4/twiageCases/case-10'], ['case-1'])).toBe(false);
    expect(queryKeyNamesCase(['media', 'case-10'], ['case-1'])).toBe(false);
    expect(queryKeyNamesCase(['teams', 3, null], ['case-1'])).toBe(false);
  });
});
