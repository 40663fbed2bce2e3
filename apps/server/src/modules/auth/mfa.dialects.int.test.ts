/**
 * MFA for the console (issue 17), on each dialect: the organisation setting (admins only, audited), a
 * console session that must enrol is held to the set-up calls, set-up (password, then a code; recovery
 * codes once), sign-in with a code / a recovery code (each accepted once), wrong codes slowed like wrong
 * passwords, crew-app sessions keep crew rights but lose ED/admin ones, and the idle-lock unlock call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, MfaStatus, RecoveryCodes, routes, TotpSetup } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { RIVERSIDE_TRUCK, send, startCase } from '../../test/crew-api.js';
import { totpCodeAt } from './mfa.js';

const dialects = await testDialects();
const board = buildPath(routes.inboundBoard.path, { id: IDS.hospitals.riversideRegional });

describe.each(dialects)('MFA on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  const signIn = (username: string, client: 'hospital' | 'ems', extra: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: routes.signIn.path,
      payload: { username, password: `demo-${username}`, twiageClient: client, platform: 'web', ...extra },
    });
  const tokenOf = (res: { json(): unknown }) =>
    (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
  const put = (url: string, body: object, token: string) => send(t, 'PUT', url, token, { body, key: null });
  const post = (url: string, body: object, token: string) => send(t, 'POST', url, token, { body, key: null });
  const code = () => totpCodeAt(secret, t.clock.now().getTime());
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = tokenOf(await signIn('admin', 'hospital'));
  });
  afterAll(() => t.close());

  it('is off in the demo organisation; only organisation admins change the setting, and it is audited', async () => {
    const ed1 = tokenOf(await signIn('ed1', 'hospital'));
    expect((await send(t, 'GET', board, ed1, { key: null })).statusCode).toBe(200);
    expect((await t.get(routes.orgSecuritySettings.path, admin)).json()).toEqual({
      mfaRequired: { edStaff: false, orgAdmin: false },
    });
    expectClientError(
      await put(routes.updateOrgSecuritySettings.path, { mfaRequired: { edStaff: true, orgAdmin: true } }, ed1),
      403,
    );
    const res = await put(
      routes.updateOrgSecuritySettings.path,
      { mfaRequired: { edStaff: true, orgAdmin: false } },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'organisation.security')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('holds a console session that must enrol to the set-up calls, then opens it once a code confirms', async () => {
    const ed1 = tokenOf(await signIn('ed1', 'hospital'));
    const held = expectClientError(await send(t, 'GET', board, ed1, { key: null }), 403);
    expect(held.code).toBe('mfa_enrolment_required');
    expect(MfaStatus.parse((await t.get(routes.mfaStatus.path, ed1)).json())).toEqual({
      enrolled: false,
      required: true,
      verified: false,
      recoveryCodesLeft: 0,
      totp: false,
      webauthnKeys: 0,
    });
    expectClientError(await post(routes.totpSetup.path, { password: 'wrong' }, ed1), 400);
    const setup = TotpSetup.parse((await post(routes.totpSetup.path, { password: 'demo-ed1' }, ed1)).json());
    secret = setup.secret;
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/Inbound:ed1\?/);
    expect(expectClientError(await post(routes.totpConfirm.path, { code: '000000' }, ed1), 400).code).toBe(
      'mfa_invalid',
    );
    const confirmed = await post(routes.totpConfirm.path, { code: code() }, ed1);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    recoveryCodes = RecoveryCodes.parse(confirmed.json()).recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await send(t, 'GET', board, ed1, { key: null })).statusCode).toBe(200);
    // The code that confirmed the set-up is used up: the same 30 s code does not sign in.
    expect(expectClientError(await signIn('ed1', 'hospital', { otp: code() }), 401).code).toBe('mfa_invalid');
    const stored = await t.database.db.selectFrom('mfa_recovery_codes').select('code_hash').execute();
    expect(stored.every((row) => row.code_hash.startsWith('$argon2id$'))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]!.replace('-', ''));
  });

  it('asks an enrolled user for a code at console sign-in, and accepts each code once', async () => {
    t.clock.advance(10 * 60_000); // past the throttle's delay for the wrong password and codes above
    expect(expectClientError(await signIn('ed1', 'hospital'), 401).code).toBe('mfa_required');
    expect(expectClientError(await signIn('ed1', 'hospital', { otp: '123456' }), 401).code).toBe('mfa_invalid');
    t.clock.advance(30_000); // the next code, and past the growing delay after a wrong one
    const res = await signIn('ed1', 'hospital', { otp: code() });
    expect(res.statusCode, res.body).toBe(200);
    expect((await send(t, 'GET', board, tokenOf(res), { key: null })).statusCode).toBe(200);
    t.clock.advance(60_000);
    const recovery = recoveryCodes[3]!.toLowerCase().replace('-', '');
    expect((await signIn('ed1', 'hospital', { recoveryCode: recovery })).statusCode).toBe(200);
    expect(expectClientError(await signIn('ed1', 'hospital', { recoveryCode: recovery }), 401).code).toBe(
      'mfa_invalid',
    );
    const status = MfaStatus.parse((await t.get(routes.mfaStatus.path, tokenOf(res))).json());
    expect(status).toMatchObject({ enrolled: true, verified: true, recoveryCodesLeft: 9 });
  });

  it('slows wrong codes like wrong passwords', async () => {
    let statuses: number[] = [];
    for (let n = 0; n < 6; n += 1)
      statuses = [...statuses, (await signIn('ed1', 'hospital', { otp: '000001' })).statusCode];
    expect(statuses).toContain(429);
    t.clock.advance(10 * 60_000);
  });

  it('leaves the crew app alone: a crew-app session has crew rights, never ED or admin ones', async () => {
    const medic1 = tokenOf(await signIn('medic1', 'ems'));
    expect((await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id).toBeTruthy();
    const ed1App = tokenOf(await signIn('ed1', 'ems'));
    expectClientError(await send(t, 'GET', board, ed1App, { key: null }), 403);
  });

  it('unlocks the idle-locked console with the password or a fresh code, counted like sign-in', async () => {
    t.clock.advance(30_000);
    const ed1 = tokenOf(await signIn('ed1', 'hospital', { otp: code() }));
    expectClientError(await post(routes.reauth.path, { password: 'nope' }, ed1), 400);
    expect((await post(routes.reauth.path, { password: 'demo-ed1' }, ed1)).statusCode).toBe(200);
    t.clock.advance(30_000);
    expect((await post(routes.reauth.path, { otp: code() }, ed1)).statusCode).toBe(200);
    expectClientError(await post(routes.reauth.path, { password: 'demo-ed1', otp: code() }, ed1), 400);
    const actions = await t.database.db
      .selectFrom('security_audit')
      .select('action')
      .where('actor_id', '=', 'user-ed1')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['mfa.enrol', 'auth.unlock', 'auth.unlockFailed']),
    );
  });
});
