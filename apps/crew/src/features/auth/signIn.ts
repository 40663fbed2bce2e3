/** The login flow (spec §4): sign in → the user → their teams → team selection (the guard takes it from there). */
import type { Team, User } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { flushSessionWrites, useSession } from '../../lib/session';

export async function signIn(username: string, password: string): Promise<void> {
  const { authorizationToken } = await api.call('signIn', {
    body: { username: username.trim(), password, twiageClient: 'ems', platform: 'web' },
  });
  const token = authorizationToken.token;
  const user = await api.call('me', { token });
  // A one-time password from an administrator: nothing but a password change is answered until then
  // (the guard shows Change password); the teams are loaded once it is changed.
  const teams = user.mustChangePassword ? [] : await loadTeams(user, token);
  useSession.setState(sessionAfterSignIn(useSession.getState(), { jwt: authorizationToken, user, teams }));
  // Signed in only once it is on the device: a reload right after must not lose the session.
  await flushSessionWrites();
  // Changes held by a 401 go now; with nothing held this just sends what waits.
  const { caseOutbox } = await import('../../lib/caseOutbox');
  void caseOutbox.resume();
}

/** A user's teams: the union of agencies they are a member of and those they administer (spec §6). */
export function teamIdsOf(user: User): string[] {
  return [...new Set([...user.emsAgencyMemberships, ...user.emsAgenciesAdministered].map((ref) => ref._id))];
}

export async function loadTeams(user: User, token?: string): Promise<Team[]> {
  const ids = teamIdsOf(user);
  const results = await Promise.allSettled(
    ids.map((id) => api.call('team', { params: { id }, query: { fields: 'dynamicForms' }, token })),
  );
  const teams = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  // One unreachable team does not keep the crew out; all of them failing is an error to show.
  const firstFailure = results.find((result) => result.status === 'rejected');
  if (teams.length === 0 && firstFailure) throw firstFailure.reason;
  // Teams a crew can choose first; one without hospitals is listed (spec §2) but below them.
  const selectableFirst = (team: Team) => (team.hospitals.length > 0 ? 0 : 1);
  return teams.sort((a, b) => selectableFirst(a) - selectableFirst(b) || a.name.localeCompare(b.name));
}

type SessionSlice = Pick<
  ReturnType<typeof useSession.getState>,
  'jwt' | 'user' | 'teams' | 'selectedTeam' | 'selectedTruck' | 'case' | 'caseActive' | 'needsAuthentication'
>;

/**
 * Keeps the chosen team and truck when the same user signs in again and the team is still theirs
 * (straight on to start); otherwise they choose again. A case owned by another user is reset (spec §4).
 */
export function sessionAfterSignIn(
  previous: SessionSlice,
  next: { jwt: SessionSlice['jwt']; user: User; teams: Team[] },
): SessionSlice {
  const sameUser = previous.user?.id === next.user.id;
  const team = sameUser ? (next.teams.find((candidate) => candidate.id === previous.selectedTeam?.id) ?? null) : null;
  const usableTeam = team && team.hospitals.length > 0 ? team : null;
  const caseOwner = previous.case?.ownedBy;
  const keepCase =
    previous.case !== null && (caseOwner === undefined || caseOwner === null || caseOwner === next.user.id);
  return {
    jwt: next.jwt,
    user: next.user,
    teams: next.teams,
    selectedTeam: usableTeam,
    selectedTruck: usableTeam ? previous.selectedTruck : null,
    case: keepCase ? previous.case : null,
    caseActive: keepCase ? previous.caseActive : false,
    needsAuthentication: false,
  };
}
