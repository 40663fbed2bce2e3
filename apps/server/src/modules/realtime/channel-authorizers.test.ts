import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.js';
import { createChannelAuthorizers } from './channel-authorizers.js';

const principal: Principal = {
  userId: 'u1',
  username: 'u1',
  sessionId: 's1',
  roles: ['crew'],
  memberOf: [],
  administers: [],
  teamIds: [],
  edHospitalIds: [],
};

describe('channel authorizers', () => {
  it('refuses a kind nobody registered a check for, and asks the registered check otherwise', async () => {
    const authorizers = createChannelAuthorizers();
    expect(await authorizers.mayAccess(principal, 'transfer', 't1')).toBe(false);
    authorizers.register('transfer', (p, id) => Promise.resolve(p.userId === 'u1' && id === 't1'));
    expect(await authorizers.mayAccess(principal, 'transfer', 't1')).toBe(true);
    expect(await authorizers.mayAccess(principal, 'transfer', 't2')).toBe(false);
  });

  it('refuses a second check for the same kind', () => {
    const authorizers = createChannelAuthorizers();
    authorizers.register('user', () => Promise.resolve(true));
    expect(() => authorizers.register('user', () => Promise.resolve(true))).toThrow(/registered already/);
  });
});
