import { describe, expect, it, vi } from 'vitest';
import { authToken, riverside } from '../test/fixtures';
import { clearSession, flushSessionWrites, hydrateSession, useSession, wipeStoredSession } from './session';
import { createLocalData, type LocalData } from './storage';

describe('session persistence', () => {
  it('writes changes encrypted, hydrates them back, and wipes all but per-user preferences on logout', async () => {
    const store = createLocalData({ encrypted: true, dbName: 'session-test' });
    await hydrateSession(store);
    const jwt = authToken();
    useSession.setState({ jwt, selectedTeam: riverside, doNotDisturb: { 'u-1': true }, autoLogoutTime: '17:00:00' });
    await flushSessionWrites();
    expect(await store.raw('jwt')).not.toContain(jwt.token);

    useSession.setState({ jwt: null, selectedTeam: null, doNotDisturb: {} });
    await hydrateSession(store);
    expect(useSession.getState()).toMatchObject({ jwt: null, selectedTeam: null, hydrated: true });

    useSession.setState({ jwt, selectedTeam: riverside, doNotDisturb: { 'u-1': true } });
    await hydrateSession(store);
    expect(useSession.getState()).toMatchObject({ jwt, selectedTeam: riverside, autoLogoutTime: '17:00:00' });

    clearSession();
    await wipeStoredSession();
    expect(await store.keys()).toEqual(['doNotDisturb']);
    await hydrateSession(store);
    expect(useSession.getState()).toMatchObject({ jwt: null, selectedTeam: null, doNotDisturb: { 'u-1': true } });
  });

  it('a page closed while the logout wipe is under way finishes the wipe when it next starts', async () => {
    const dbName = 'session-wipe-interrupted';
    const store = freezable(createLocalData({ encrypted: true, dbName }));
    await hydrateSession(store);
    useSession.setState({ jwt: authToken(), selectedTeam: riverside, emtLevel: { 'u-1': 'Paramedic' } });
    await flushSessionWrites();

    // The page is closed the moment the medic taps Yes: nothing that logout queues reaches IndexedDB.
    store.freeze();
    clearSession();
    void wipeStoredSession();

    vi.resetModules();
    const nextPage = await import('./session');
    await nextPage.hydrateSession(createLocalData({ encrypted: true, dbName }));
    expect(nextPage.useSession.getState()).toMatchObject({
      jwt: null,
      selectedTeam: null,
      emtLevel: { 'u-1': 'Paramedic' },
    });
    expect(localStorage.getItem('inbound.sessionWipePending')).toBeNull();
  });
});

/** A store that, once frozen, never finishes another write: as a closed page leaves them. */
function freezable(store: LocalData): LocalData & { freeze(): void } {
  let frozen = false;
  const never = new Promise<never>(() => undefined);
  return {
    ...store,
    set: (key, value) => (frozen ? never : store.set(key, value)),
    clear: (keep) => (frozen ? never : store.clear(keep)),
    freeze: () => {
      frozen = true;
    },
  };
}
