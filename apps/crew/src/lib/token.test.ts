import { describe, expect, it } from 'vitest';
import { isTokenValid, jwtExpiryMs } from './token';

const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;
const now = Date.parse('2026-11-21T12:00:00Z');

describe('token validity (spec §4)', () => {
  it('reads the exp claim', () => {
    expect(jwtExpiryMs(jwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(jwtExpiryMs('not-a-jwt')).toBeNull();
    expect(jwtExpiryMs(jwt({ sub: 'x' }))).toBeNull();
  });

  it.each([
    ['no token', null, false],
    ['both in the future', { token: jwt({ exp: now / 1000 + 60 }), expirationDate: '2026-11-21T13:00:00Z' }, true],
    ['expirationDate passed', { token: jwt({ exp: now / 1000 + 60 }), expirationDate: '2026-11-21T11:59:59Z' }, false],
    ['exp passed', { token: jwt({ exp: now / 1000 - 1 }), expirationDate: '2026-11-21T13:00:00Z' }, false],
    [
      'exactly now counts as passed',
      { token: jwt({ exp: now / 1000 }), expirationDate: '2026-11-21T13:00:00Z' },
      false,
    ],
    ['an opaque token with a future expiry', { token: 'opaque', expirationDate: '2026-11-21T13:00:00Z' }, true],
  ])('%s', (_case, auth, expected) => {
    expect(isTokenValid(auth, now)).toBe(expected);
  });
});
