import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, serverMessages, SignInResponse } from '@inbound/contract';
import { createTestApp, expectClientError, TEST_SECRET, type TestApp } from '../../test/app.js';

const signInBody = (username: string, password: string) => ({
  username,
  password,
  twiageClient: 'ems',
  platform: 'web',
});

describe('auth routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('requires authentication for sign-out and every signed-in call', async () => {
    expectClientError(await t.post(routes.signOut.path, {}), 401);
    const res = await t.get(routes.me.path);
    expect(expectClientError(res, 401).message).toBe(serverMessages.authRequired);
  });

  describe('POST /v4/auth/signin', () => {
    it('answers a token and its expiry for the spec body', async () => {
      const res = await t.post(routes.signIn.path, signInBody('medic1', 'demo-medic1'));
      expect(res.statusCode).toBe(200);
      const body = SignInResponse.parse(res.json());
      expect(new Date(body.authorizationToken.expirationDate).getTime()).toBe(
        t.clock.now().getTime() + t.config.tokenTtlMs,
      );
      const me = await t.get(routes.me.path, body.authorizationToken.token);
      expect(me.statusCode).toBe(200);
    });

    it('accepts the e-mail address, in any case, and the username in any case', async () => {
      expect((await t.post(routes.signIn.path, signInBody('MEDIC2@Inbound.Example', 'demo-medic2'))).statusCode).toBe(
        200,
      );
      expect((await t.post(routes.signIn.path, signInBody('  Medic2 ', 'demo-medic2'))).statusCode).toBe(200);
    });

    it('answers the same 401 message for a wrong password and an unknown user', async () => {
      const wrong = expectClientError(await t.post(routes.signIn.path, signInBody('medic2', 'nope-nope')), 401);
      const unknown = expectClientError(await t.post(routes.signIn.path, signInBody('nobody', 'nope-nope')), 401);
      expect(wrong.message).toBe(serverMessages.invalidCredentials);
      expect(unknown.message).toBe(wrong.message);
    });

    it.each([
      [{}, 'body.username: username is required'],
      [{ password: 'x', twiageClient: 'ems', platform: 'web' }, 'body.username: username is required'],
      [{ username: 'medic1', twiageClient: 'ems', platform: 'web' }, 'body.password: password is required'],
      [{ username: '', password: 'x', twiageClient: 'ems', platform: 'web' }, 'body.username: username is required'],
      [
        { username: 'medic1', password: '', twiageClient: 'ems', platform: 'web' },
        'body.password: password is required',
      ],
    ])('refuses a body with missing fields: %j', async (body, message) => {
      expect(expectClientError(await t.post(routes.signIn.path, body), 400).message).toContain(message);
    });

    it('refuses wrong types, unknown clients and huge strings with 4xx', async () => {
      expectClientError(await t.post(routes.signIn.path, { ...signInBody('medic1', 'x'), username: 42 }), 400);
      expectClientError(await t.post(routes.signIn.path, { ...signInBody('medic1', 'x'), password: ['a'] }), 400);
      expectClientError(
        await t.post(routes.signIn.path, { ...signInBody('medic1', 'x'), twiageClient: 'desktop' }),
        400,
      );
      const huge = 'a'.repeat(1_000_000);
      expectClientError(await t.post(routes.signIn.path, signInBody(huge, 'x')), 400);
      expectClientError(await t.post(routes.signIn.path, signInBody('medic1', huge)), 400);
      const tooLarge = await t.post(routes.signIn.path, signInBody('a'.repeat(2_000_000), 'x'));
      expect(expectClientError(tooLarge, 413).message).toMatch(/too large/);
    });

    it('refuses malformed JSON and a non-JSON body with 4xx', async () => {
      const bad = await t.app.inject({
        method: 'POST',
        url: routes.signIn.path,
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "medic1",',
      });
      expect(expectClientError(bad, 400).message).toMatch(/not valid JSON/);
      const text = await t.app.inject({
        method: 'POST',
        url: routes.signIn.path,
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
    });

    it('refuses a disabled account, but only to someone who knows its password', async () => {
      await t.database.db.updateTable('users').set({ disabled: 1 }).where('username', '=', 'medic3').execute();
      try {
        const res = await t.post(routes.signIn.path, signInBody('medic3', 'demo-medic3'));
        expect(expectClientError(res, 403).message).toBe(serverMessages.accountDisabled);
        expectClientError(await t.post(routes.signIn.path, signInBody('medic3', 'wrong-one')), 401);
      } finally {
        await t.database.db.updateTable('users').set({ disabled: 0 }).where('username', '=', 'medic3').execute();
      }
    });

    it('records a session per token', async () => {
      await t.signIn('ed1');
      const sessions = await t.database.db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', 'user-ed1')
        .execute();
      expect(sessions.length).toBeGreaterThanOrEqual(1);
      expect(sessions[0]!.client).toBe('ems/web');
      expect(sessions[0]!.revoked_at).toBeNull();
    });
  });

  describe('tokens', () => {
    it('accepts the Created-At header, well-formed or not', async () => {
      const token = await t.signIn('medic1');
      expect((await t.get(routes.me.path, token, { 'created-at': 'yesterday-ish' })).statusCode).toBe(200);
    });

    it('refuses an expired token', async () => {
      const token = await t.signIn('medic1');
      t.clock.advance(t.config.tokenTtlMs + 1_000);
      try {
        expect(expectClientError(await t.get(routes.me.path, token), 401).message).toBe(serverMessages.tokenInvalid);
      } finally {
        t.clock.advance(-(t.config.tokenTtlMs + 1_000));
      }
      expect((await t.get(routes.me.path, token)).statusCode).toBe(200);
    });

    it('refuses a forged token, one signed with another secret, and a token with no session', async () => {
      const token = await t.signIn('medic1');
      const [header, , signature] = token.split('.');
      const otherPayload = Buffer.from(JSON.stringify({ sub: 'user-admin', jti: 'x', exp: 9_999_999_999 })).toString(
        'base64url',
      );
      expectClientError(await t.get(routes.me.path, `${header}.${otherPayload}.${signature}`), 401);

      const now = Math.floor(t.clock.now().getTime() / 1000);
      const otherSecret = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-medic1')
        .setJti('whatever')
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough-yes'));
      expectClientError(await t.get(routes.me.path, otherSecret), 401);

      // Right secret, but never issued: no session row, so no access.
      const unissued = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-medic1')
        .setJti('never-issued')
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(TEST_SECRET));
      expectClientError(await t.get(routes.me.path, unissued), 401);
    });

    it('refuses other schemes and garbage in the Authorization header', async () => {
      const token = await t.signIn('medic1');
      for (const authorization of [`Bearer ${token}`, 'JWT', 'JWT a b', 'JWT not.a.jwt', `JWT ${'x'.repeat(10_000)}`]) {
        expectClientError(await t.get(routes.me.path, null, { authorization }), 401);
      }
    });

    it('refuses the token of a user disabled after sign-in', async () => {
      const token = await t.signIn('medic2');
      await t.database.db.updateTable('users').set({ disabled: 1 }).where('username', '=', 'medic2').execute();
      try {
        expectClientError(await t.get(routes.me.path, token), 401);
      } finally {
        await t.database.db.updateTable('users').set({ disabled: 0 }).where('username', '=', 'medic2').execute();
      }
    });
    it('trusts a checked token for AUTH_CACHE_TTL at most, then reads the database again', async () => {
      const token = await t.signIn('medic2');
      expect((await t.get(routes.me.path, token)).statusCode).toBe(200);
      // Disabled behind the server's back (another process): the cached check holds until it expires.
      await t.database.db.updateTable('users').set({ disabled: 1 }).where('username', '=', 'medic2').execute();
      try {
        expect((await t.get(routes.me.path, token)).statusCode).toBe(200);
        t.clock.advance(t.config.authCacheMs);
        expectClientError(await t.get(routes.me.path, token), 401);
      } finally {
        await t.database.db.updateTable('users').set({ disabled: 0 }).where('username', '=', 'medic2').execute();
      }
    });
  });

  describe('POST /v4/auth/signout', () => {
    it('revokes the token it is called with, and only that one', async () => {
      const first = await t.signIn('medic1');
      const second = await t.signIn('medic1');
      const res = await t.post(routes.signOut.path, undefined, first);
      expect(res.statusCode).toBe(204);
      expectClientError(await t.get(routes.me.path, first), 401);
      expectClientError(await t.post(routes.signOut.path, undefined, first), 401);
      expect((await t.get(routes.me.path, second)).statusCode).toBe(200);
    });
  });
});

describe('sign-in rate limits', () => {
  const signInFrom = (t: TestApp, address: string, username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: routes.signIn.path,
      remoteAddress: address,
      payload: signInBody(username, password),
    });

  it('counts failures per account (username and e-mail together) and refuses new addresses past the limit', async () => {
    const t = await createTestApp({ env: { SIGNIN_LIMIT_PER_ACCOUNT: '4', SIGNIN_WINDOW_PER_ACCOUNT: '15m' } });
    try {
      // Two typed names of one account, from two addresses (no address reaches its own delay).
      await signInFrom(t, '10.1.0.1', 'medic1', 'wrong-password');
      await signInFrom(t, '10.1.0.1', 'medic1@inbound.example', 'wrong-password');
      await signInFrom(t, '10.1.0.2', 'MEDIC1', 'wrong-password');
      expect((await signInFrom(t, '10.1.0.2', 'medic1@inbound.example', 'wrong-password')).statusCode).toBe(401);
      // The account has had its four failures: an address that never signed in to it waits, right password or not.
      const refused = await signInFrom(t, '10.1.0.3', 'medic1', 'demo-medic1');
      expect(expectClientError(refused, 429).message).toBe(serverMessages.tooManySignIns);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // Other accounts are not affected.
      expect((await signInFrom(t, '10.1.0.3', 'medic2', 'demo-medic2')).statusCode).toBe(200);
      // Unknown names are counted the same way, so the limit does not tell who exists.
      for (let i = 0; i < 4; i++) await signInFrom(t, `10.2.0.${i}`, 'ghost', 'x');
      expectClientError(await signInFrom(t, '10.2.0.9', 'ghost', 'x'), 429);

      t.clock.advance(15 * 60_000 + 1_000);
      expect((await signInFrom(t, '10.1.0.3', 'medic1', 'demo-medic1')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('never locks the right password out from an address the account signed in from', async () => {
    const t = await createTestApp({ env: { SIGNIN_LIMIT_PER_ACCOUNT: '5', SIGNIN_WINDOW_PER_ACCOUNT: '15m' } });
    try {
      const station = '10.3.0.1';
      expect((await signInFrom(t, station, 'ed1', 'demo-ed1')).statusCode).toBe(200);
      // An attacker hammers the account from many addresses, by name and by e-mail.
      let refusedAttacks = 0;
      for (let i = 0; i < 40; i++) {
        const res = await signInFrom(t, `10.66.${i % 7}.1`, i % 2 ? 'ed1' : 'ed1@inbound.example', `guess-${i}`);
        if (res.statusCode === 429) refusedAttacks++;
        else expect(res.statusCode).toBe(401);
      }
      expect(refusedAttacks).toBeGreaterThan(20);
      // Even with the attacker's right guess, a new address is refused now …
      expectClientError(await signInFrom(t, '10.66.9.9', 'ed1', 'demo-ed1'), 429);
      // … while the real user at the station signs in.
      expect((await signInFrom(t, station, 'ed1', 'demo-ed1')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('slows one address on one account with growing delays, which a success resets', async () => {
    const t = await createTestApp({ env: { SIGNIN_LIMIT_PER_ACCOUNT: '50' } });
    try {
      const attempt = (password = 'wrong-password') => signInFrom(t, '10.4.0.1', 'medic3', password);
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      // Three free failures; from the third on each waits 1 s, 2 s, 4 s … after the last one.
      const early = await attempt('demo-medic3');
      expect(expectClientError(early, 429).message).toBe(serverMessages.tooManySignIns);
      expect(early.headers['retry-after']).toBe('1');
      // Another address is not slowed by this one's failures.
      expect((await signInFrom(t, '10.4.0.2', 'medic3', 'wrong-password')).statusCode).toBe(401);
      t.clock.advance(1_000);
      expect((await attempt()).statusCode).toBe(401);
      t.clock.advance(1_000);
      expect((await attempt()).statusCode).toBe(429);
      t.clock.advance(1_000);
      expect((await attempt('demo-medic3')).statusCode).toBe(200);
      // The success cleared this address's delay.
      expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('answers 429 per address after the requests allowed in the window', async () => {
    const t = await createTestApp({ env: { SIGNIN_LIMIT_PER_ADDRESS: '4', SIGNIN_WINDOW_PER_ADDRESS: '1m' } });
    try {
      for (let i = 0; i < 4; i++) {
        expect((await t.post(routes.signIn.path, signInBody(`user${i}`, 'x'))).statusCode).toBe(401);
      }
      const res = await t.post(routes.signIn.path, signInBody('medic1', 'demo-medic1'));
      expect(expectClientError(res, 429).message).toBe(serverMessages.tooManySignIns);
      // Another address is not affected.
      const other = await t.app.inject({
        method: 'POST',
        url: routes.signIn.path,
        remoteAddress: '10.9.8.7',
        payload: signInBody('medic1', 'demo-medic1'),
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('body-less POSTs', () => {
  it('accept an empty body sent as application/json (sign-out from a client that always sets it)', async () => {
    const t = await createTestApp();
    try {
      const token = await t.signIn('medic1');
      const res = await t.app.inject({
        method: 'POST',
        url: routes.signOut.path,
        headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(204);
    } finally {
      await t.close();
    }
  });
});

describe('console sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives console tokens only to ED staff and organisation admins', async () => {
    const asConsole = (username: string) => ({ ...signInBody(username, `demo-${username}`), twiageClient: 'hospital' });
    expect((await t.post(routes.signIn.path, asConsole('ed1'))).statusCode).toBe(200);
    expect((await t.post(routes.signIn.path, asConsole('admin'))).statusCode).toBe(200);
    const crew = await t.post(routes.signIn.path, asConsole('medic2'));
    expect(expectClientError(crew, 403).message).toBe(serverMessages.notHospitalStaff);
  });
});
