import { describe, expect, it } from 'vitest';
import { authToken, riverside } from '../test/fixtures';
import { clearSession, flushSessionWrites, hydrateSession, useSession, wipeStoredSession } from './session';
import { createLocalData } from './storage';

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
});
