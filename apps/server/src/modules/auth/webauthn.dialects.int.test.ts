/**
 * WebAuthn as a console second factor, an admin clearing a user's factors, and new recovery codes
 * (issue 17), on each dialect. A software authenticator (test/software-authenticator.ts) answers the
 * ceremonies; the relying party is PUBLIC_URL's origin and host name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  MfaStatus,
  RecoveryCodes,
  routes,
  WebAuthnCeremony,
  WebAuthnCredentials,
  WebAuthnRegistered,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { send } from '../../test/crew-api.js';
import { softwareAuthenticator } from '../../test/software-authenticator.js';

const dialects = await testDialects();
const board = buildPath(routes.inboundBoard.path, { id: IDS.hospitals.riversideRegional });
const PUBLIC_URL = 'https://console.inbound.example';
const RP_ID = 'console.inbound.example';

describe.each(dialects)('WebAuthn and second-factor administration on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const key1 = softwareAuthenticator(RP_ID, PUBLIC_URL);
  const key2 = softwareAuthenticator(RP_ID, PUBLIC_URL);
  let recoveryCodes: string[] = [];

  const signIn = (username: string, extra: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: routes.signIn.path,
      payload: { username, password: `demo-${username}`, twiageClient: 'hospital', platform: 'web', ...extra },
    });
  const tokenOf = (res: { json(): unknown }) =>
    (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
  const post = (url: string, body: object, token: string | null) => send(t, 'POST', url, token, { body, key: null });
  const signInOptions = async (password = 'demo-ed1') =>
    t.app.inject({ method: 'POST', url: routes.webAuthnSignInOptions.path, payload: { username: 'ed1', password } });
  const ceremony = (res: { json(): unknown; statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(200);
    return WebAuthnCeremony.parse(res.json());
  };
  /** A fresh sign-in challenge answered by `key` (with the answer's options). */
  const assertion = async (key: typeof key1, init: Parameters<typeof key1.assert>[1] = {}) => {
    const c = ceremony(await signInOptions());
    return { challengeId: c.challengeId, response: key.assert(c.options, init) };
  };
  const waitOutThrottle = () => t.clock.advance(10 * 60_000);

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { PUBLIC_URL } });
    admin = tokenOf(await signIn('admin'));
    const on = await send(t, 'PUT', routes.updateOrgSecuritySettings.path, admin, {
      body: { mfaRequired: { edStaff: true, orgAdmin: false } },
      key: null,
    });
    expect(on.statusCode, on.body).toBe(200);
  });
  afterAll(() => t.close());

  it('enrols a security key as the first factor: password again, origin and single-use challenge checked', async () => {
    const ed1 = tokenOf(await signIn('ed1'));
    expect(expectClientError(await send(t, 'GET', board, ed1, { key: null }), 403).code).toBe('mfa_enrolment_required');
    expectClientError(await post(routes.webAuthnRegisterOptions.path, { password: 'wrong' }, ed1), 400);
    // Another site's origin: refused.
    let c = ceremony(await post(routes.webAuthnRegisterOptions.path, { password: 'demo-ed1' }, ed1));
    expect(c.options).toMatchObject({ rp: { id: RP_ID, name: 'Inbound' } });
    const phished = key1.register(c.options, { origin: 'https://inbound.example.evil' });
    const wrongOrigin = await post(
      routes.webAuthnRegister.path,
      { challengeId: c.challengeId, name: 'Key', response: phished },
      ed1,
    );
    expect(expectClientError(wrongOrigin, 400).code).toBe('mfa_invalid');
    // That challenge is used up even though the answer was wrong.
    const again = await post(
      routes.webAuthnRegister.path,
      { challengeId: c.challengeId, name: 'Key', response: key1.register(c.options) },
      ed1,
    );
    expect(expectClientError(again, 400).message).toMatch(/expired or was already used/);
    // No user verification (a touch only): refused.
    c = ceremony(await post(routes.webAuthnRegisterOptions.path, { password: 'demo-ed1' }, ed1));
    const noUv = key1.register(c.options, { userVerified: false });
    expectClientError(
      await post(routes.webAuthnRegister.path, { challengeId: c.challengeId, name: 'Key', response: noUv }, ed1),
      400,
    );
    // A challenge past its two minutes: refused.
    c = ceremony(await post(routes.webAuthnRegisterOptions.path, { password: 'demo-ed1' }, ed1));
    t.clock.advance(2 * 60_000 + 1);
    const late = await post(
      routes.webAuthnRegister.path,
      { challengeId: c.challengeId, name: 'Key', response: key1.register(c.options) },
      ed1,
    );
    expectClientError(late, 400);

    c = ceremony(await post(routes.webAuthnRegisterOptions.path, { password: 'demo-ed1' }, ed1));
    const ok = await post(
      routes.webAuthnRegister.path,
      { challengeId: c.challengeId, name: 'Triage PC', response: key1.register(c.options) },
      ed1,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const registered = WebAuthnRegistered.parse(ok.json());
    expect(registered.credential).toMatchObject({ id: key1.credentialId, name: 'Triage PC' });
    recoveryCodes = registered.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect((await send(t, 'GET', board, ed1, { key: null })).statusCode).toBe(200);

    // A second, named key: no new recovery codes; the same key twice is refused.
    c = ceremony(await post(routes.webAuthnRegisterOptions.path, { password: 'demo-ed1' }, ed1));
    expect((c.options.excludeCredentials as { id: string }[]).map((e) => e.id)).toEqual([key1.credentialId]);
    const second = await post(
      routes.webAuthnRegister.path,
      { challengeId: c.challengeId, name: 'YubiKey', response: key2.register(c.options) },
      ed1,
    );
    expect(WebAuthnRegistered.parse(second.json()).recoveryCodes).toEqual([]);
    const list = WebAuthnCredentials.parse((await t.get(routes.webAuthnCredentials.path, ed1)).json());
    expect(list.credentials.map((k) => k.name).sort()).toEqual(['Triage PC', 'YubiKey']);
    expect(MfaStatus.parse((await t.get(routes.mfaStatus.path, ed1)).json())).toMatchObject({
      enrolled: true,
      totp: false,
      webauthnKeys: 2,
      recoveryCodesLeft: 10,
    });
    waitOutThrottle();
  });

  it('signs in with a key after the password; each challenge once, the counter must move on', async () => {
    expect(expectClientError(await signIn('ed1'), 401).code).toBe('mfa_required');
    expectClientError(await signInOptions('wrong'), 401);
    waitOutThrottle();
    const good = await assertion(key1);
    const res = await signIn('ed1', { webauthn: good });
    expect(res.statusCode, res.body).toBe(200);
    expect((await send(t, 'GET', board, tokenOf(res), { key: null })).statusCode).toBe(200);
    // The same answer again: its challenge is gone.
    expect(expectClientError(await signIn('ed1', { webauthn: good }), 401).code).toBe('mfa_invalid');
    // A counter that did not move forward (a cloned key): refused.
    waitOutThrottle();
    expectClientError(await signIn('ed1', { webauthn: await assertion(key1, { counter: key1.counter }) }), 401);
    waitOutThrottle();
    // No user verification: refused. A signature from a key that is not ed1's: refused.
    expectClientError(await signIn('ed1', { webauthn: await assertion(key1, { userVerified: false }) }), 401);
    waitOutThrottle();
    const stranger = softwareAuthenticator(RP_ID, PUBLIC_URL);
    expectClientError(await signIn('ed1', { webauthn: await assertion(stranger) }), 401);
    waitOutThrottle();
    // Answered after the challenge expired: refused.
    const slow = await assertion(key1, { counter: key1.counter + 5 });
    t.clock.advance(2 * 60_000 + 1);
    expectClientError(await signIn('ed1', { webauthn: slow }), 401);
    waitOutThrottle();
    const later = await signIn('ed1', { webauthn: await assertion(key1, { counter: key1.counter + 10 }) });
    expect(later.statusCode, later.body).toBe(200);
    const failed = await t.database.db
      .selectFrom('security_audit')
      .select('detail')
      .where('action', '=', 'auth.signInFailed')
      .where('actor_id', '=', IDS.users.ed1)
      .execute();
    expect(failed.filter((row) => row.detail?.includes('securityKey')).length).toBeGreaterThanOrEqual(4);
  });

  it('removes a key only from a session that passed the second factor; a removed key no longer signs in', async () => {
    waitOutThrottle();
    const verified = tokenOf(await signIn('ed1', { webauthn: await assertion(key1) }));
    // A crew-app session of ed1 did not pass the second factor.
    const appSession = tokenOf(
      await t.app.inject({
        method: 'POST',
        url: routes.signIn.path,
        payload: { username: 'ed1', password: 'demo-ed1', twiageClient: 'ems', platform: 'web' },
      }),
    );
    const removeUrl = buildPath(routes.webAuthnRemoveCredential.path, { credentialId: key2.credentialId });
    expectClientError(await send(t, 'DELETE', removeUrl, appSession, { key: null }), 403);
    expect((await send(t, 'DELETE', removeUrl, verified, { key: null })).statusCode).toBe(200);
    expectClientError(await send(t, 'DELETE', removeUrl, verified, { key: null }), 404);
    const c = ceremony(await signInOptions());
    expect((c.options.allowCredentials as { id: string }[]).map((k) => k.id)).toEqual([key1.credentialId]);
    const removed = await signIn('ed1', { webauthn: { challengeId: c.challengeId, response: key2.assert(c.options) } });
    expect(expectClientError(removed, 401).code).toBe('mfa_invalid');
  });

  it('regenerates recovery codes: password again, the old ones void at once', async () => {
    waitOutThrottle();
    const ed1 = tokenOf(await signIn('ed1', { webauthn: await assertion(key1) }));
    expectClientError(await post(routes.regenerateRecoveryCodes.path, { password: 'wrong' }, ed1), 400);
    waitOutThrottle();
    const res = await post(routes.regenerateRecoveryCodes.path, { password: 'demo-ed1' }, ed1);
    expect(res.statusCode, res.body).toBe(200);
    const fresh = RecoveryCodes.parse(res.json()).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(expectClientError(await signIn('ed1', { recoveryCode: recoveryCodes[0] }), 401).code).toBe('mfa_invalid');
    waitOutThrottle();
    expect((await signIn('ed1', { recoveryCode: fresh[0] })).statusCode).toBe(200);
  });

  it("lets an organisation admin clear a user's factors: audited, sessions ended, enrolment asked again", async () => {
    waitOutThrottle();
    const ed1 = tokenOf(await signIn('ed1', { webauthn: await assertion(key1) }));
    const url = buildPath(routes.adminClearUserMfa.path, { id: IDS.users.ed1 });
    expectClientError(await send(t, 'DELETE', url, ed1, { key: null }), 403);
    expectClientError(await send(t, 'DELETE', url, null, { key: null }), 401);
    expectClientError(
      await send(t, 'DELETE', buildPath(routes.adminClearUserMfa.path, { id: 'user-nobody' }), admin, { key: null }),
      404,
    );
    const res = await send(t, 'DELETE', url, admin, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    expectClientError(await send(t, 'GET', board, ed1, { key: null }), 401);
    const next = await signIn('ed1');
    expect(next.statusCode, next.body).toBe(200);
    expect(expectClientError(await send(t, 'GET', board, tokenOf(next), { key: null }), 403).code).toBe(
      'mfa_enrolment_required',
    );
    expect(MfaStatus.parse((await t.get(routes.mfaStatus.path, tokenOf(next))).json())).toMatchObject({
      enrolled: false,
      webauthnKeys: 0,
      recoveryCodesLeft: 0,
    });
    const adminLog = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'user.mfaCleared')
      .execute();
    expect(adminLog).toHaveLength(1);
    expect(adminLog[0]).toMatchObject({ actor_id: IDS.users.admin, entity_id: IDS.users.ed1 });
    const securityLog = await t.database.db
      .selectFrom('security_audit')
      .selectAll()
      .where('action', '=', 'mfa.cleared')
      .execute();
    expect(securityLog).toHaveLength(1);
  });

  it('answers the chain verification to organisation admins only', async () => {
    const res = await post(routes.adminAuditVerify.path, {}, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ holds: true, problems: [] });
    expect((res.json() as { rows: number }).rows).toBeGreaterThan(10);
    const medic = await t.signIn('medic1');
    expectClientError(await post(routes.adminAuditVerify.path, {}, medic), 403);
    expectClientError(await post(routes.adminAuditVerify.path, {}, null), 401);
  });
});
