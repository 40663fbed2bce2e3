/**
 * User administration over HTTP on each dialect: the authorisation matrix of every call, invitations
 * with a one-time password that must be changed first, resets, edits of roles and memberships (live
 * subscriptions of lost access end), disable/enable (tokens out at once, sockets within the sweep),
 * the last-admin and self-disable guards, and an audit entry per change without any secret.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  serverMessages,
  AdminAuditPage,
  AdminUser,
  AdminUsersResponse,
  MembershipOptionsResponse,
  OneTimePasswordResponse,
  REALTIME_CLOSE,
  User,
  authorizationHeader,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { send, signInAll, type Method } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';
import { openAuthenticated, openSocket, type TestSocket } from '../realtime/test-client.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;

describe.each(dialects)('user administration on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  let admin: string;
  let ed1: string;
  let medic1: string;
  const sockets: TestSocket[] = [];

  const call = (method: Method, path: string, token: string | null, body?: unknown) =>
    send(t, method, path, token, { key: null, ...(body !== undefined ? { body } : {}) });

  async function signInRaw(username: string, password: string, client: 'ems' | 'hospital' = 'hospital') {
    return t.app.inject({
      method: 'POST',
      url: routes.signIn.path,
      payload: { username, password, twiageClient: client, platform: 'web' },
    });
  }
  async function signInWith(username: string, password: string, client: 'ems' | 'hospital' = 'hospital') {
    const res = await signInRaw(username, password, client);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
  }
  async function invite(body: Record<string, unknown>) {
    const res = await call('POST', '/v4/admin/users', admin, body);
    expect(res.statusCode, res.body).toBe(201);
    return OneTimePasswordResponse.parse(res.json());
  }
  async function changePassword(token: string, current: string, next: string) {
    const res = await call('POST', routes.changePassword.path, token, {
      currentPassword: current,
      newPassword: next,
      verifyPassword: next,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  async function auditOf(entityId: string) {
    const res = await call('GET', `/v4/admin/audit-log?entityType=user&entityId=${entityId}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return AdminAuditPage.parse(res.json()).entries;
  }
  async function connect(token: string) {
    const socket = await openAuthenticated(url, token);
    sockets.push(socket);
    return socket;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/realtime`;
    [admin, ed1, medic1] = await signInAll(t, ['admin', 'ed1', 'medic1']);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  it('answers every call to organisation admins only (403 others, 401 without a token)', async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', '/v4/admin/users'],
      ['GET', '/v4/admin/membership-options'],
      ['GET', `/v4/admin/users/${IDS.users.ed1}`],
      ['POST', '/v4/admin/users', { username: 'nobody1', displayName: 'No Body', kind: 'orgAdmin' }],
      ['PATCH', `/v4/admin/users/${IDS.users.ed1}`, { displayName: 'Taylor Brooks' }],
      ['POST', `/v4/admin/users/${IDS.users.medic3}/reset-password`],
      ['POST', `/v4/admin/users/${IDS.users.medic3}/disable`],
      ['POST', `/v4/admin/users/${IDS.users.medic3}/enable`],
    ];
    for (const [method, path, body] of calls) {
      expectClientError(await call(method, path, ed1, body), 403);
      expectClientError(await call(method, path, medic1, body), 403);
      expectClientError(await call(method, path, null, body), 401);
    }
    // Nothing was changed by the refused calls.
    const medic3 = AdminUser.parse((await call('GET', `/v4/admin/users/${IDS.users.medic3}`, admin)).json());
    expect(medic3).toMatchObject({ disabled: false, mustChangePassword: false });
    expect(await auditOf(IDS.users.medic3)).toEqual([]);
  });

  it('lists and searches users with their memberships; offers agencies and hospitals', async () => {
    const all = AdminUsersResponse.parse((await call('GET', '/v4/admin/users', admin)).json());
    expect(all.users.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'ed1', 'medic1']));
    const found = AdminUsersResponse.parse((await call('GET', '/v4/admin/users?q=TAYLOR%20bro', admin)).json());
    expect(found.users.map((u) => u.username)).toEqual(['ed1']);
    expect(found.users[0]).toMatchObject({
      roles: ['edStaff'],
      disabled: false,
      hospitals: [{ id: RIVERSIDE, name: 'Riverside Regional Medical Center' }],
    });
    const byMail = AdminUsersResponse.parse((await call('GET', '/v4/admin/users?q=medic1%40inbound', admin)).json());
    expect(byMail.users.map((u) => u.username)).toEqual(['medic1']);
    expect(byMail.users[0]!.agencies.length).toBeGreaterThan(0);
    const wildcard = AdminUsersResponse.parse((await call('GET', '/v4/admin/users?q=%25', admin)).json());
    expect(wildcard.users).toEqual([]);
    const options = MembershipOptionsResponse.parse((await call('GET', '/v4/admin/membership-options', admin)).json());
    expect(options.hospitals.map((h) => h.id)).toContain(RIVERSIDE);
    expect(options.agencies.map((a) => a.id)).toContain(IDS.agencies.riverside);
  });

  it('invites with a one-time password that works once and must be changed before anything else', async () => {
    const { user, oneTimePassword } = await invite({
      username: 'dreyes',
      displayName: 'Dana Reyes',
      email: 'Dana.Reyes@inbound.example',
      kind: 'edStaff',
      hospitals: [RIVERSIDE],
    });
    expect(oneTimePassword).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){4}$/);
    expect(user).toMatchObject({
      username: 'dreyes',
      roles: ['edStaff'],
      mustChangePassword: true,
      hospitals: [{ id: RIVERSIDE }],
    });
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(oneTimePassword);

    const token = await signInWith('dreyes', oneTimePassword);
    const me = User.parse((await call('GET', routes.me.path, token)).json());
    expect(me.mustChangePassword).toBe(true);
    const blocked = expectClientError(await call('GET', `/v4/hospitals/${RIVERSIDE}/inbound`, token), 403);
    expect(blocked.code).toBe('password_change_required');
    // No live data either: the socket's auth is refused.
    const socket = await openSocket(url);
    sockets.push(socket);
    socket.send({ type: 'auth', token });
    expect((await socket.closed).code).toBe(REALTIME_CLOSE.unauthorized);

    await changePassword(token, oneTimePassword, 'river-side-nights-42');
    expect(User.parse((await call('GET', routes.me.path, token)).json()).mustChangePassword).toBe(false);
    expect((await call('GET', `/v4/hospitals/${RIVERSIDE}/inbound`, token)).statusCode).toBe(200);
    expectClientError(await signInRaw('dreyes', oneTimePassword), 401);
    await signInWith('dreyes', 'river-side-nights-42');

    const entries = await auditOf(user.id);
    expect(entries.map((e) => e.action)).toEqual(['user.invite']);
    expect(entries[0]!.summary).toBe('Invited Dana Reyes (dreyes) as ED staff of Riverside Regional Medical Center');
    expect(entries[0]!.actor).toEqual({ id: IDS.users.admin, name: 'Morgan Lee' });
    const stored = await t.database.db.selectFrom('admin_audit').selectAll().where('entity_id', '=', user.id).execute();
    for (const entry of stored) {
      expect(`${entry.before} ${entry.after} ${entry.summary}`).not.toContain(oneTimePassword);
      expect(`${entry.before} ${entry.after}`).not.toContain('argon2');
    }
  });

  it('refuses bad invitations with a message naming the problem', async () => {
    const bad: [Record<string, unknown>, number, RegExp][] = [
      [{ username: 'a', displayName: 'A', kind: 'orgAdmin' }, 400, /username/],
      [{ username: 'has space', displayName: 'A', kind: 'orgAdmin' }, 400, /username/],
      [{ username: 'okname', displayName: '', kind: 'orgAdmin' }, 400, /displayName/],
      [{ username: 'okname', displayName: 'A', kind: 'boss' }, 400, /kind/],
      [{ username: 'okname', displayName: 'A', kind: 'crew' }, 400, /agency/],
      [{ username: 'okname', displayName: 'A', kind: 'edStaff' }, 400, /hospital/],
      [{ username: 'okname', displayName: 'A', kind: 'orgAdmin', email: 'nope' }, 400, /e-mail/],
      [
        { username: 'okname', displayName: 'A', kind: 'edStaff', hospitals: ['hospital-nowhere'] },
        400,
        /hospital-nowhere/,
      ],
      [
        { username: 'okname', displayName: 'A', kind: 'crew', agencies: [{ id: 'agency-nowhere', role: 'member' }] },
        400,
        /agency-nowhere/,
      ],
      [{ username: 'ED1', displayName: 'A', kind: 'orgAdmin' }, 409, /username/],
      [{ username: 'okname', displayName: 'A', kind: 'orgAdmin', email: 'ED1@inbound.example' }, 409, /e-mail/],
    ];
    for (const [body, status, message] of bad) {
      expect(expectClientError(await call('POST', '/v4/admin/users', admin, body), status).message).toMatch(message);
    }
    expect(AdminUsersResponse.parse((await call('GET', '/v4/admin/users?q=okname', admin)).json()).users).toEqual([]);
    expectClientError(await call('PATCH', `/v4/admin/users/${IDS.users.ed1}`, admin, {}), 400);
    expectClientError(await call('GET', '/v4/admin/users/user-nobody', admin), 404);
  });

  it('lets an unused one-time password expire after 72 hours; a reset issues a fresh one', async () => {
    const { user, oneTimePassword } = await invite({
      username: 'lateuser',
      displayName: 'Late User',
      kind: 'crew',
      agencies: [{ id: IDS.agencies.riverside, role: 'member' }],
    });
    let advanced = 0;
    const advance = (ms: number) => {
      t.clock.advance(ms);
      advanced += ms;
    };
    try {
      advance(72 * 3_600_000 - 60_000);
      expect(await signInWith('lateuser', oneTimePassword, 'ems')).toBeTruthy();
      advance(2 * 60_000);
      const expired = await signInRaw('lateuser', oneTimePassword, 'ems');
      expect(expectClientError(expired, 401).message).toBe(serverMessages.oneTimePasswordExpired);
      // Someone without the password learns nothing new: the usual answer.
      expect(expectClientError(await signInRaw('lateuser', 'not-the-one', 'ems'), 401).message).toBe(
        serverMessages.invalidCredentials,
      );
      const adminNow = await signInWith('admin', 'demo-admin');
      const reset = OneTimePasswordResponse.parse(
        (await call('POST', `/v4/admin/users/${user.id}/reset-password`, adminNow)).json(),
      );
      const token = await signInWith('lateuser', reset.oneTimePassword, 'ems');
      await changePassword(token, reset.oneTimePassword, 'late-but-here-2026');
      // A chosen password does not expire.
      advance(200 * 3_600_000);
      expect(await signInWith('lateuser', 'late-but-here-2026', 'ems')).toBeTruthy();
    } finally {
      t.clock.advance(-advanced);
    }
  });

  it('resets a password: old tokens out, a new one-time password to change', async () => {
    const { user, oneTimePassword } = await invite({
      username: 'kcho',
      displayName: 'Kim Cho',
      kind: 'crew',
      agencies: [{ id: IDS.agencies.riverside, role: 'member' }],
    });
    const first = await signInWith('kcho', oneTimePassword, 'ems');
    await changePassword(first, oneTimePassword, 'kim-cho-medic-2026');
    const reset = OneTimePasswordResponse.parse(
      (await call('POST', `/v4/admin/users/${user.id}/reset-password`, admin)).json(),
    );
    expect(reset.oneTimePassword).not.toBe(oneTimePassword);
    expect(reset.user.mustChangePassword).toBe(true);
    expectClientError(await call('GET', routes.me.path, first), 401);
    expectClientError(await signInRaw('kcho', 'kim-cho-medic-2026', 'ems'), 401);
    const second = (
      (await signInRaw('kcho', reset.oneTimePassword, 'ems')).json() as { authorizationToken: { token: string } }
    ).authorizationToken.token;
    expectClientError(await call('GET', `/v4/emsAgencies/${IDS.agencies.riverside}`, second), 403);
    const entries = await auditOf(user.id);
    expect(entries.map((e) => e.action)).toEqual(['user.resetPassword', 'user.invite']);
  });

  it('disables: tokens refused at once, sockets closed within the sweep, sign-in 403; enables again', async () => {
    const { user, oneTimePassword } = await invite({
      username: 'pnurse',
      displayName: 'Pat Nurse',
      kind: 'edStaff',
      hospitals: [RIVERSIDE],
    });
    const token = await signInWith('pnurse', oneTimePassword);
    await changePassword(token, oneTimePassword, 'pat-nurse-er-2026');
    const socket = await connect(token);
    socket.send({ type: 'subscribe', channel: `hospital:${RIVERSIDE}` });
    await socket.next('subscribed');

    const disabled = AdminUser.parse((await call('POST', `/v4/admin/users/${user.id}/disable`, admin)).json());
    expect(disabled.disabled).toBe(true);
    const started = Date.now();
    expectClientError(await call('GET', routes.me.path, token), 401);
    expect((await socket.closed).code).toBe(REALTIME_CLOSE.revoked);
    expect(Date.now() - started).toBeLessThan(5_000);
    const refused = expectClientError(await signInRaw('pnurse', 'pat-nurse-er-2026'), 403);
    expect(refused.message).toMatch(/disabled/);

    const enabled = AdminUser.parse((await call('POST', `/v4/admin/users/${user.id}/enable`, admin)).json());
    expect(enabled.disabled).toBe(false);
    await signInWith('pnurse', 'pat-nurse-er-2026');
    const entries = await auditOf(user.id);
    expect(entries.map((e) => e.action)).toEqual(['user.enable', 'user.disable', 'user.invite']);
    expect(entries[1]!.summary).toBe('Disabled Pat Nurse (pnurse) (1 session ended)');
    expect(entries[1]!.before).toMatchObject({ disabled: false });
    expect(entries[1]!.after).toMatchObject({ disabled: true });
  });

  it('removing a hospital membership ends its live subscriptions; adding one opens access', async () => {
    const { user, oneTimePassword } = await invite({
      username: 'mover',
      displayName: 'Alex Mover',
      kind: 'edStaff',
      hospitals: [RIVERSIDE],
    });
    const token = await signInWith('mover', oneTimePassword);
    await changePassword(token, oneTimePassword, 'alex-night-shift-26');
    const socket = await connect(token);
    socket.send({ type: 'subscribe', channel: `hospital:${RIVERSIDE}` });
    await socket.next('subscribed');
    socket.send({ type: 'subscribe', channel: `hospital-status:${RIVERSIDE}` });
    await socket.next('subscribed');

    const moved = await call('PATCH', `/v4/admin/users/${user.id}`, admin, { hospitals: [ST_MARYS] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(AdminUser.parse(moved.json()).hospitals.map((h) => h.id)).toEqual([ST_MARYS]);
    const ended = await socket.next('error', (f) => f.channel === `hospital:${RIVERSIDE}`);
    expect(ended.message).toBe('You no longer have access to this channel.');
    await socket.next('error', (f) => f.channel === `hospital-status:${RIVERSIDE}`);
    // The same socket may now follow the new hospital, and not the old one again.
    socket.send({ type: 'subscribe', channel: `hospital:${ST_MARYS}` });
    await socket.next('subscribed', (f) => f.channel === `hospital:${ST_MARYS}`);
    socket.send({ type: 'subscribe', channel: `hospital:${RIVERSIDE}` });
    await socket.next('error', (f) => f.channel === `hospital:${RIVERSIDE}`);
    expectClientError(await call('GET', `/v4/hospitals/${RIVERSIDE}/inbound`, token), 403);
    expect((await call('GET', `/v4/hospitals/${ST_MARYS}/inbound`, token)).statusCode).toBe(200);

    const [entry] = await auditOf(user.id);
    expect(entry).toMatchObject({ action: 'user.update' });
    expect(entry!.summary).toContain('ED staff of Riverside Regional Medical Center removed');
    expect(entry!.summary).toContain("ED staff of St. Mary's");
  });

  it('edits roles; an admin cannot disable themselves or remove the last organisation admin', async () => {
    expect(
      expectClientError(await call('POST', `/v4/admin/users/${IDS.users.admin}/disable`, admin), 400).message,
    ).toMatch(/your own account/);
    expect(
      expectClientError(await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, admin, { roles: ['edStaff'] }), 400)
        .message,
    ).toMatch(/at least one enabled organisation admin/);
    expectClientError(await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, admin, { roles: [] }), 400);
    expectClientError(await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, admin, { roles: ['nurse'] }), 400);

    const { user, oneTimePassword } = await invite({
      username: 'second',
      displayName: 'Second Admin',
      kind: 'orgAdmin',
    });
    const token = await signInWith('second', oneTimePassword);
    await changePassword(token, oneTimePassword, 'deputy-organiser-26');
    // With another admin, the first may step down; the second then cannot.
    const stepDown = await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, token, {
      roles: ['orgAdmin', 'edStaff'],
    });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    const demoted = await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, token, { roles: ['edStaff'] });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expectClientError(await call('GET', '/v4/admin/users', admin), 403);
    expectClientError(await call('PATCH', `/v4/admin/users/${user.id}`, token, { roles: ['crew'] }), 400);
    // Restore the demo admin for the other tests.
    expect((await call('PATCH', `/v4/admin/users/${IDS.users.admin}`, token, { roles: ['orgAdmin'] })).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/v4/admin/users', admin)).statusCode).toBe(200);
    const [entry] = await auditOf(IDS.users.admin);
    expect(entry!.summary).toBe('Changed Morgan Lee (admin): role added: organisation admin; role removed: ED staff');
    expect(entry!.actor.name).toBe('Second Admin');
  });

  it('keeps an unchanged token header shape for the crew app (mustChangePassword false on /users/me)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: routes.me.path,
      headers: { authorization: authorizationHeader(medic1) },
    });
    expect(User.parse(res.json()).mustChangePassword).toBe(false);
  });
});
