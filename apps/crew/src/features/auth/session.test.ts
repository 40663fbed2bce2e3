import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { authToken, hilltop, localCase, medic1, riverside, signedInSession, trucks } from '../../test/fixtures';
import { api } from '../../lib/apiClient';
import { flushSessionWrites, resetSessionForTests, useSession } from '../../lib/session';
import { handleUnauthorized, validateSession } from './session';
import { sessionAfterSignIn, teamIdsOf } from './signIn';

describe('token validation (spec §4)', () => {
  it('keeps a valid session', () => {
    resetSessionForTests(signedInSession());
    expect(validateSession()).toBe('valid');
  });

  it('logs out on an expired token without a case', async () => {
    mockFetch({ 'POST /v4/auth/signout': { status: 204 } });
    resetSessionForTests({ ...signedInSession(), jwt: authToken(-1) });
    expect(validateSession()).toBe('loggedOut');
    await flushSessionWrites();
    expect(useSession.getState().jwt).toBeNull();
  });

  it('keeps an active case and asks to authenticate again', () => {
    resetSessionForTests({ ...signedInSession(), jwt: authToken(-1), caseActive: true, case: localCase({ id: 'c1' }) });
    expect(validateSession()).toBe('needsAuthentication');
    expect(useSession.getState()).toMatchObject({ needsAuthentication: true, caseActive: true });
    expect(useSession.getState().jwt).not.toBeNull();
  });

  it('a 401 from the API logs out when no case is active', async () => {
    mockFetch({
      'GET /v4/users/me': { status: 401, body: { message: 'Your session is not valid. Please sign in again.' } },
      'POST /v4/auth/signout': { status: 401 },
    });
    resetSessionForTests(signedInSession());
    await expect(api.call('me')).rejects.toMatchObject({ status: 401 });
    expect(useSession.getState().jwt).toBeNull();
  });

  it('a 401 during a case sets the authenticate flag instead', () => {
    resetSessionForTests({ ...signedInSession(), caseActive: true, case: localCase({ id: 'c1' }) });
    expect(handleUnauthorized()).toBe('needsAuthentication');
    expect(useSession.getState().needsAuthentication).toBe(true);
  });
});

describe('sign-in session rules', () => {
  it("a user's teams are the union of memberships and administered agencies", () => {
    expect(teamIdsOf({ ...medic1, emsAgenciesAdministered: [{ _id: 'hilltop' }, { _id: 'riverside' }] })).toEqual([
      'riverside',
      'lakeside',
      'hilltop',
    ]);
  });

  const previous = {
    jwt: null,
    user: medic1,
    teams: [riverside],
    selectedTeam: riverside,
    selectedTruck: trucks[0]!,
    case: localCase({ id: 'c1', ownedBy: 'someone-else' }),
    caseActive: true,
    needsAuthentication: true,
  };

  it('keeps the team and truck for the same user, drops a case owned by someone else', () => {
    const next = sessionAfterSignIn(previous, { jwt: authToken(), user: medic1, teams: [riverside, hilltop] });
    expect(next).toMatchObject({
      selectedTeam: riverside,
      selectedTruck: trucks[0],
      case: null,
      caseActive: false,
      needsAuthentication: false,
    });
  });

  it("keeps the user's own case", () => {
    const next = sessionAfterSignIn(
      { ...previous, case: localCase({ id: 'c1', ownedBy: medic1.id }) },
      { jwt: authToken(), user: medic1, teams: [riverside] },
    );
    expect(next).toMatchObject({ case: { id: 'c1' }, caseActive: true });
  });

  it('makes another user choose again', () => {
    const next = sessionAfterSignIn(previous, { jwt: authToken(), user: { ...medic1, id: 'u-2' }, teams: [riverside] });
    expect(next).toMatchObject({ selectedTeam: null, selectedTruck: null });
  });

  it('drops a team no longer the user’s', () => {
    const next = sessionAfterSignIn(previous, { jwt: authToken(), user: medic1, teams: [hilltop] });
    expect(next).toMatchObject({ selectedTeam: null, selectedTruck: null });
  });
});
