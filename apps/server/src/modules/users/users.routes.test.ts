import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, PASSWORD_MIN_LENGTH, routes, serverMessages, User } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';

describe('users routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.get(routes.me.path), 401);
    expectClientError(
      await t.post(routes.changePassword.path, { currentPassword: 'a', newPassword: 'b', verifyPassword: 'b' }),
      401,
    );
  });

  describe('GET /v4/users/me', () => {
    it("answers the spec's user with memberships and features", async () => {
      const token = await t.signIn('medic1');
      const res = await t.get(routes.me.path, token);
      expect(res.statusCode).toBe(200);
      const me = User.parse(res.json());
      expect(me).toMatchObject({
        id: IDS.users.medic1,
        _id: IDS.users.medic1,
        username: 'medic1',
        email: 'medic1@inbound.example',
        displayName: 'Jordan Reyes',
        features: [{ name: 'aiEnhancedProtocols', enabled: true }],
        roles: ['crew'],
        hospitalMemberships: [],
      });
      expect(me.emsAgencyMemberships.map((m) => m._id).sort()).toEqual(
        [IDS.agencies.lakeside, IDS.agencies.riverside].sort(),
      );
      expect(me.emsAgenciesAdministered).toEqual([{ _id: IDS.agencies.hilltop }]);
    });

    it('sends an ETag (304 when unchanged) and is never stale: an edit is the next answer', async () => {
      const token = await t.signIn('medic2');
      const first = await t.get(routes.me.path, token);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect((await t.get(routes.me.path, token, { 'if-none-match': etag })).statusCode).toBe(304);
      await t.database.db
        .updateTable('users')
        .set({ display_name: 'Sam R. Patel' })
        .where('id', '=', IDS.users.medic2)
        .execute();
      try {
        const edited = await t.get(routes.me.path, token, { 'if-none-match': etag });
        expect(edited.statusCode).toBe(200);
        expect(User.parse(edited.json()).displayName).toBe('Sam R. Patel');
        expect(edited.headers.etag).not.toBe(etag);
      } finally {
        await t.database.db
          .updateTable('users')
          .set({ display_name: 'Sam Patel' })
          .where('id', '=', IDS.users.medic2)
          .execute();
      }
      // Another user's answer is never served from this one's entry.
      const other = User.parse(
        (await t.get(routes.me.path, await t.signIn('medic3'), { 'if-none-match': etag })).json(),
      );
      expect(other.username).toBe('medic3');
    });

    it('tells ED staff which hospital they staff', async () => {
      const me = User.parse((await t.get(routes.me.path, await t.signIn('ed1'))).json());
      expect(me.hospitalMemberships).toEqual([{ _id: IDS.hospitals.riversideRegional }]);
      expect(me.roles).toEqual(['edStaff']);
      expect(me.emsAgencyMemberships).toEqual([]);
    });
  });

  describe('POST /v4/users/password', () => {
    const change = (token: string, currentPassword: string, newPassword: string, verifyPassword = newPassword) =>
      t.post(routes.changePassword.path, { currentPassword, newPassword, verifyPassword }, token);

    it("answers the spec's texts for empty fields, in the spec's order", async () => {
      const token = await t.signIn('medic2');
      expect(expectClientError(await change(token, '', '', ''), 400).message).toBe(messages.fillCurrentPassword);
      expect(expectClientError(await change(token, 'demo-medic2', '', ''), 400).message).toBe(messages.fillNewPassword);
      expect(expectClientError(await change(token, 'demo-medic2', 'x', ''), 400).message).toBe(
        messages.fillNewPasswordAgain,
      );
    });

    it('refuses missing fields, wrong types and huge strings with 400', async () => {
      const token = await t.signIn('medic2');
      expect(expectClientError(await t.post(routes.changePassword.path, {}, token), 400).message).toMatch(
        /body\.currentPassword/,
      );
      expectClientError(
        await t.post(routes.changePassword.path, { currentPassword: 1, newPassword: 2, verifyPassword: 3 }, token),
        400,
      );
      const huge = 'p'.repeat(1_000_000);
      expectClientError(await change(token, 'demo-medic2', huge, 'short'), 400);
      expectClientError(await change(token, 'demo-medic2', huge, huge), 413);
    });

    it('refuses a wrong current password, a mismatch and weak passwords, each with its message', async () => {
      const token = await t.signIn('medic2');
      expect(expectClientError(await change(token, 'not-it', 'Str0ng-enough-pw'), 400).message).toBe(
        serverMessages.currentPasswordWrong,
      );
      expect(
        expectClientError(await change(token, 'demo-medic2', 'Str0ng-enough-pw', 'Str0ng-enough-px'), 400).message,
      ).toBe(serverMessages.passwordsDoNotMatch);
      expect(expectClientError(await change(token, 'demo-medic2', 'short'), 400).message).toBe(
        serverMessages.passwordTooShort(PASSWORD_MIN_LENGTH),
      );
      expect(expectClientError(await change(token, 'demo-medic2', 'my-medic2-pass'), 400).message).toBe(
        serverMessages.passwordContainsUsername,
      );
      expect(expectClientError(await change(token, 'demo-medic2', 'Password123'), 400).message).toBe(
        serverMessages.passwordTooCommon,
      );
      // Nothing changed: the old password still signs in.
      expect(await t.signIn('medic2')).toBeTruthy();
    });

    it('counts wrong current passwords like wrong sign-ins: delays, then the account limit', async () => {
      const token = await t.signIn('medic1');
      const answers: number[] = [];
      for (let i = 0; i < 40; i++)
        answers.push((await change(token, `guess-${i}`, 'river-bend-42-stretcher')).statusCode);
      // Three free failures, then the growing delay refuses the rest of this burst.
      expect(answers.slice(0, 3)).toEqual([400, 400, 400]);
      expect(answers.slice(3).every((status) => status === 429)).toBe(true);
      const waited = await change(token, 'demo-medic1', 'river-bend-42-stretcher');
      expect(expectClientError(waited, 429).message).toBe(serverMessages.tooManySignIns);
      expect(Number(waited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });

    it("changes the password and revokes the user's other tokens, keeping this one", async () => {
      const other = await t.signIn('medic3');
      const token = await t.signIn('medic3');
      const res = await change(token, 'demo-medic3', 'river-bend-42-stretcher');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: serverMessages.passwordChanged });

      expectClientError(await t.get(routes.me.path, other), 401);
      expect((await t.get(routes.me.path, token)).statusCode).toBe(200);
      expectClientError(
        await t.post(routes.signIn.path, {
          username: 'medic3',
          password: 'demo-medic3',
          twiageClient: 'ems',
          platform: 'web',
        }),
        401,
      );
      expect(await t.signIn('medic3', 'river-bend-42-stretcher')).toBeTruthy();
      expect(
        expectClientError(await change(token, 'river-bend-42-stretcher', 'river-bend-42-stretcher'), 400).message,
      ).toBe(serverMessages.passwordUnchanged);
    });
  });
});
