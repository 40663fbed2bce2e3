import { describe, expect, it } from 'vitest';
import { resolveNavigation, type NavigationState } from './guard';

const signedOut = { hasToken: false, tokenValid: false, hasTeam: false, hasTruck: false, caseActive: false };
const noTeam = { hasToken: true, tokenValid: true, hasTeam: false, hasTruck: false, caseActive: false };
const noTruck = { ...noTeam, hasTeam: true };
const ready = { ...noTruck, hasTruck: true };
const inCase = { ...ready, caseActive: true };
const expired = { ...ready, tokenValid: false };
const expiredInCase = { ...inCase, tokenValid: false };

type Row = [string, Omit<NavigationState, 'path'>, string, string | null];

// [rule, state, path, expected redirect (null = stay)]
const table: Row[] = [
  ['no token: login allowed', signedOut, '/', null],
  ['no token: protocol allowed', signedOut, '/protocol', null],
  ['no token: start → login', signedOut, '/start', '/'],
  ['no token: team-selection → login', signedOut, '/team-selection', '/'],
  ['no token: truck-selection → login', signedOut, '/truck-selection', '/'],
  ['no token: settings → login', signedOut, '/settings', '/'],
  ['no token: shift → login', signedOut, '/shift', '/'],
  ['no token: case → login', signedOut, '/case', '/'],
  ['no token: security → login', signedOut, '/security', '/'],
  ['no token: changePassword → login', signedOut, '/changePassword', '/'],
  ['no token: caseFeedbackSettings → login', signedOut, '/caseFeedbackSettings', '/'],
  ['no token: unknown → login', signedOut, '/nowhere', '/'],
  ['expired token, no case: as no token', expired, '/start', '/'],
  ['expired token, no case: login allowed', expired, '/', null],
  ['expired token, active case: the case stays', expiredInCase, '/case', null],
  ['token, no team: login → team-selection', noTeam, '/', '/team-selection'],
  ['token, no team: start → team-selection', noTeam, '/start', '/team-selection'],
  ['token, no team: truck-selection → team-selection', noTeam, '/truck-selection', '/team-selection'],
  ['token, no team: protocol → team-selection', noTeam, '/protocol', '/team-selection'],
  ['token, no team: team-selection allowed', noTeam, '/team-selection', null],
  ['team, no truck: truck-selection allowed', noTruck, '/truck-selection', null],
  ['team, no truck: team-selection still allowed', noTruck, '/team-selection', null],
  ['team, no truck: start → truck-selection', noTruck, '/start', '/truck-selection'],
  ['team, no truck: login → truck-selection', noTruck, '/', '/truck-selection'],
  ['team, no truck: settings → truck-selection', noTruck, '/settings', '/truck-selection'],
  ['active case: start → case', inCase, '/start', '/case'],
  ['active case: login → case', inCase, '/', '/case'],
  ['active case: settings → case', inCase, '/settings', '/case'],
  ['active case: team-selection → case', inCase, '/team-selection', '/case'],
  ['active case: protocol → case', inCase, '/protocol', '/case'],
  ['active case: case allowed', inCase, '/case', null],
  ['no active case: case → start', ready, '/case', '/start'],
  ['login with token → start', ready, '/', '/start'],
  ['ready: start allowed', ready, '/start', null],
  ['ready: team-selection allowed', ready, '/team-selection', null],
  ['ready: truck-selection allowed', ready, '/truck-selection', null],
  ['ready: settings allowed', ready, '/settings', null],
  ['ready: shift allowed', ready, '/shift', null],
  ['ready: security allowed', ready, '/security', null],
  ['ready: changePassword allowed', ready, '/changePassword', null],
  ['ready: caseFeedbackSettings allowed', ready, '/caseFeedbackSettings', null],
  ['ready: protocol allowed', ready, '/protocol', null],
  ['ready: unknown path → start', ready, '/nowhere', '/start'],
  ['ready: trailing slash is the same route', ready, '/settings/', null],
  // Ours: a one-time password from an administrator must be changed first (no teams can be read before).
  ['one-time password: changePassword allowed', { ...noTeam, mustChangePassword: true }, '/changePassword', null],
  [
    'one-time password: team-selection → changePassword',
    { ...noTeam, mustChangePassword: true },
    '/team-selection',
    '/changePassword',
  ],
  ['one-time password: start → changePassword', { ...ready, mustChangePassword: true }, '/start', '/changePassword'],
  ['one-time password, signed out: login', { ...signedOut, mustChangePassword: true }, '/changePassword', '/'],
];

describe('resolveNavigation (spec §2 navigation guard)', () => {
  it.each(table)('%s', (_rule, state, path, expected) => {
    expect(resolveNavigation({ ...state, path })).toBe(expected);
  });
});
