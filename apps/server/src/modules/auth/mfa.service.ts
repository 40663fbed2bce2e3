/**
 * The MFA calls (issue 17): status, authenticator set-up (password first, then the first code, which
 * answers ten recovery codes shown once), checking a second factor at sign-in and when the idle-locked
 * console is unlocked, and the organisation's setting. Wrong passwords and wrong codes count in the
 * sign-in throttle (growing delays per account × address; the real user at a known address is never
 * locked out), so a stolen token is not a code or password oracle.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  MFA_INVALID,
  WEBAUTHN_INVALID,
  serverMessages,
  type MfaStatus,
  type OrgSecuritySettings,
  type UserRole,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { parseJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../errors.js';
import { recordAdminChange } from '../admin/audit.js';
import type { SecurityEvent } from '../audit/security-audit.js';
import {
  acceptTotp,
  mfaRequiredFor,
  newRecoveryCodes,
  newTotpSecret,
  normalRecoveryCode,
  type OrgSecuritySettingsStore,
} from './mfa.js';
import { isOrgAdmin, type Principal } from './principal.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { CHALLENGE_GONE, type WebAuthn } from './webauthn.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

export interface MfaServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  throttle: SignInThrottle;
  settings: OrgSecuritySettingsStore;
  securityAudit: (event: SecurityEvent) => Promise<void>;
  /** Drops the user's cached principals (their MFA state changed). */
  forgetUser(userId: string): void;
  /** Security keys (webauthn.ts). */
  webauthn: WebAuthn;
}

type Factor = {
  otp?: string | undefined;
  recoveryCode?: string | undefined;
  webauthn?: { challengeId: string; response: AuthenticationResponseJSON } | undefined;
};

/** A change of second factors asks a session that passed the second factor. */
const MFA_FIRST = 'Sign in with your second factor first.';

export function createMfaService({
  db,
  clock,
  passwords,
  throttle,
  settings,
  securityAudit,
  forgetUser,
  webauthn,
}: MfaServiceDeps) {
  const user = async (userId: string) => {
    const row = await db
      .selectFrom('users')
      .select([
        'id',
        'username',
        'display_name',
        'password_hash',
        'totp_secret',
        'totp_pending_secret',
        'totp_last_step',
      ])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('User');
    return row;
  };
  const throttled = async (attempt: { userId: string; typedName: string; address: string }) => {
    const waitMs = await throttle.waitMs(attempt);
    if (waitMs > 0) throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(waitMs / 1000));
  };

  /** The password again (counted like sign-in) before a change of the user's second factors. */
  async function requirePassword(principal: Principal, password: string, address: string) {
    const row = await user(principal.userId);
    const attempt = { userId: row.id, typedName: row.username.toLowerCase(), address };
    await throttled(attempt);
    if (!(await passwords.verify(row.password_hash, password))) {
      await throttle.failed(attempt);
      throw badRequest(serverMessages.currentPasswordWrong);
    }
    return row;
  }

  /** Ten new recovery codes and their hashes (hashed before any transaction: argon2 is slow). */
  async function newHashedRecoveryCodes() {
    const recoveryCodes = newRecoveryCodes();
    const hashes = await Promise.all(recoveryCodes.map((c) => passwords.hash(normalRecoveryCode(c))));
    return { recoveryCodes, hashes };
  }
  /** Replaces the user's recovery codes: the old ones stop working in the same transaction. */
  async function replaceRecoveryCodes(trx: Kysely<DB>, userId: string, hashes: string[], at: string) {
    await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('mfa_recovery_codes')
      .values(
        hashes.map((code_hash) => ({ id: randomUUID(), user_id: userId, code_hash, created_at: at, used_at: null })),
      )
      .execute();
  }
  const hasFactor = async (row: { id: string; totp_secret?: string | null | undefined }) =>
    row.totp_secret != null || (await webauthn.count(row.id)) > 0;

  /**
   * Accepts a security key's answer, a TOTP code (moving the last step on, so it is never accepted
   * again) or an unused recovery code.
   */
  async function acceptSecondFactor(
    userId: string,
    factor: Factor,
  ): Promise<'otp' | 'recoveryCode' | 'webauthn' | null> {
    const now = clock.now();
    if (factor.webauthn !== undefined) return (await webauthn.accept(userId, factor.webauthn)) ? 'webauthn' : null;
    const row = await user(userId);
    if (factor.recoveryCode === undefined && !row.totp_secret) return null;
    if (factor.otp !== undefined) {
      if (!row.totp_secret) return null;
      const step = acceptTotp(row.totp_secret, factor.otp, row.totp_last_step ?? null, now.getTime());
      if (step === null) return null;
      // Two requests with the same code: only the one that moves the step on wins.
      const moved = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(moved.numUpdatedRows) === 1 ? 'otp' : null;
    }
    if (factor.recoveryCode !== undefined) {
      const typed = normalRecoveryCode(factor.recoveryCode);
      const codes = await db
        .selectFrom('mfa_recovery_codes')
        .select(['id', 'code_hash'])
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
      for (const code of codes) {
        if (!(await passwords.verify(code.code_hash, typed))) continue;
        const used = await db
          .updateTable('mfa_recovery_codes')
          .set({ used_at: now.toISOString() })
          .where('id', '=', code.id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        return Number(used.numUpdatedRows) === 1 ? 'recoveryCode' : null;
      }
    }
    return null;
  }

  return {
    acceptSecondFactor,

    async storedRoles(userId: string): Promise<UserRole[]> {
      const row = await db.selectFrom('users').select('roles').where('id', '=', userId).executeTakeFirst();
      return parseJson<UserRole[]>(row?.roles ?? null, []);
    },

    /** What sign-in needs: is an authenticator app or a security key set up. */
    async enrolled(userId: string): Promise<boolean> {
      return hasFactor(await user(userId));
    },

    async status(principal: Principal, sessionVerified: boolean, roles: readonly UserRole[]): Promise<MfaStatus> {
      const row = await user(principal.userId);
      const left = await db
        .selectFrom('mfa_recovery_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', principal.userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      const webauthnKeys = await webauthn.count(row.id);
      return {
        enrolled: row.totp_secret != null || webauthnKeys > 0,
        required: mfaRequiredFor(roles, await settings.get()),
        verified: sessionVerified,
        recoveryCodesLeft: Number(left?.n ?? 0),
        totp: row.totp_secret != null,
        webauthnKeys,
      };
    },

    async setup(principal: Principal, password: string, address: string) {
      const row = await requirePassword(principal, password, address);
      // A second authenticator replaces the first only once its first code confirms it (confirm).
      const { secret, otpauthUri } = newTotpSecret(row.username);
      await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', row.id).execute();
      return { secret, otpauthUri };
    },

    async confirm(principal: Principal, code: string, address: string): Promise<{ recoveryCodes: string[] }> {
      const row = await user(principal.userId);
      if (!row.totp_pending_secret)
        throw conflict('Start setting up the authenticator again: no set-up is in progress.');
      const attempt = { userId: row.id, typedName: row.username.toLowerCase(), address };
      await throttled(attempt);
      const now = clock.now();
      const step = acceptTotp(row.totp_pending_secret, code, null, now.getTime());
      if (step === null) {
        await throttle.failed(attempt);
        throw new AppError(400, 'mfa_invalid', MFA_INVALID.message);
      }
      // A user who already has a security key keeps their recovery codes.
      const first = (await webauthn.count(row.id)) === 0;
      const { recoveryCodes, hashes } = await newHashedRecoveryCodes();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            totp_secret: row.totp_pending_secret,
            totp_pending_secret: null,
            totp_enrolled_at: now.toISOString(),
            totp_last_step: step,
          })
          .where('id', '=', row.id)
          .execute();
        if (first || row.totp_secret != null) await replaceRecoveryCodes(trx, row.id, hashes, now.toISOString());
        // The session that set it up has just shown a code: it passed the second factor.
        await trx
          .updateTable('sessions')
          .set({ mfa_at: now.toISOString() })
          .where('jti', '=', principal.sessionId)
          .execute();
      });
      forgetUser(row.id);
      await securityAudit({ actorId: row.id, action: 'mfa.enrol', entityType: 'user', entityId: row.id, at: now });
      return { recoveryCodes: first || row.totp_secret != null ? recoveryCodes : [] };
    },

    /** New recovery codes (password again, a session that passed the second factor); the old ones are void at once. */
    async regenerateRecoveryCodes(principal: Principal, password: string, address: string) {
      if (principal.mfaVerified !== true) throw forbidden(MFA_FIRST);
      const row = await requirePassword(principal, password, address);
      if (!(await hasFactor(row))) throw conflict('Set up a second factor first: recovery codes belong to it.');
      const now = clock.now();
      const { recoveryCodes, hashes } = await newHashedRecoveryCodes();
      await db.transaction().execute((trx) => replaceRecoveryCodes(trx, row.id, hashes, now.toISOString()));
      await securityAudit({
        actorId: row.id,
        action: 'mfa.recoveryCodes',
        entityType: 'user',
        entityId: row.id,
        at: now,
      });
      return { recoveryCodes };
    },

    /**
     * An organisation admin clears a user's second factors (lost phone or key): the authenticator app,
     * security keys and recovery codes go, the user's sessions end, and — where the organisation requires
     * MFA — they set one up again at their next sign-in. Audited in the administration and security logs.
     */
    async clearUserFactors(principal: Principal, userId: string) {
      if (!isOrgAdmin(principal)) throw forbidden();
      const row = await user(userId);
      const now = clock.now();
      const keys = await webauthn.count(row.id);
      const before = { totp: row.totp_secret != null, securityKeys: keys };
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_enrolled_at: null, totp_last_step: null })
          .where('id', '=', row.id)
          .execute();
        await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', row.id).execute();
        await trx.deleteFrom('webauthn_credentials').where('user_id', '=', row.id).execute();
        await trx.deleteFrom('webauthn_challenges').where('user_id', '=', row.id).execute();
        await trx
          .updateTable('sessions')
          .set({ revoked_at: now.toISOString() })
          .where('user_id', '=', row.id)
          .where('revoked_at', 'is', null)
          .execute();
        await recordAdminChange(trx, {
          actor: principal,
          action: 'user.mfaCleared',
          entityType: 'user',
          entityId: row.id,
          summary: `Cleared the second factors of ${row.username}: they set up again at their next sign-in`,
          before,
          after: { totp: false, securityKeys: 0 },
          at: now,
        });
      });
      forgetUser(row.id);
      await securityAudit({
        actorId: principal.userId,
        action: 'mfa.cleared',
        entityType: 'user',
        entityId: row.id,
        at: now,
      });
      return { message: 'Second factors cleared. The user sets up again at their next sign-in.' };
    },

    async webAuthnRegisterOptions(principal: Principal, password: string, address: string) {
      const row = await requirePassword(principal, password, address);
      return webauthn.registrationOptions({ id: row.id, username: row.username, displayName: row.display_name });
    },

    async webAuthnRegister(
      principal: Principal,
      body: { challengeId: string; name: string; response: RegistrationResponseJSON },
    ) {
      const row = await user(principal.userId);
      const first = !(await hasFactor(row));
      const result = await webauthn.register(row.id, body);
      if (result === 'challengeGone') throw badRequest(CHALLENGE_GONE);
      if (result === 'invalid') throw new AppError(400, 'mfa_invalid', WEBAUTHN_INVALID.message);
      if (result === 'duplicate') throw conflict('This security key is already registered.');
      const now = clock.now();
      const codes = first ? await newHashedRecoveryCodes() : null;
      await db.transaction().execute(async (trx) => {
        if (codes) await replaceRecoveryCodes(trx, row.id, codes.hashes, now.toISOString());
        // The session that added the key has just used it (with user verification).
        await trx
          .updateTable('sessions')
          .set({ mfa_at: now.toISOString() })
          .where('jti', '=', principal.sessionId)
          .execute();
      });
      forgetUser(row.id);
      await securityAudit({
        actorId: row.id,
        action: 'mfa.webauthnAdded',
        entityType: 'user',
        entityId: row.id,
        detail: { key: result.credential.id.slice(0, 16) },
        at: now,
      });
      return { credential: result.credential, recoveryCodes: codes?.recoveryCodes ?? [] };
    },

    async webAuthnCredentials(principal: Principal) {
      return { credentials: await webauthn.list(principal.userId) };
    },

    async webAuthnRemove(principal: Principal, credentialId: string) {
      if (principal.mfaVerified !== true) throw forbidden(MFA_FIRST);
      if (!(await webauthn.remove(principal.userId, credentialId))) throw notFound('Security key');
      forgetUser(principal.userId);
      await securityAudit({
        actorId: principal.userId,
        action: 'mfa.webauthnRemoved',
        entityType: 'user',
        entityId: principal.userId,
        detail: { key: credentialId.slice(0, 16) },
        at: clock.now(),
      });
      return { message: 'Security key removed.' };
    },

    /** After the right password (checked by the caller): a sign-in challenge for the user's keys. */
    async webAuthnSignInOptions(userId: string) {
      const ceremony = await webauthn.signInOptions(userId);
      if (!ceremony)
        throw conflict('No security key is registered for this account: use the code from your authenticator app.');
      return ceremony;
    },

    /** Unlocking the idle-locked console: the password or a current code, counted like sign-in. */
    async reauth(
      principal: Principal,
      body: { password?: string | undefined; otp?: string | undefined },
      address: string,
    ) {
      const row = await user(principal.userId);
      const attempt = { userId: row.id, typedName: row.username.toLowerCase(), address };
      await throttled(attempt);
      const ok =
        body.password !== undefined
          ? await passwords.verify(row.password_hash, body.password)
          : (await acceptSecondFactor(row.id, { otp: body.otp })) !== null;
      await securityAudit({
        actorId: row.id,
        action: ok ? 'auth.unlock' : 'auth.unlockFailed',
        entityType: 'session',
        entityId: principal.sessionId,
        detail: { address, with: body.password !== undefined ? 'password' : 'otp' },
        at: clock.now(),
      });
      if (!ok) {
        await throttle.failed(attempt);
        throw badRequest(body.password !== undefined ? serverMessages.currentPasswordWrong : MFA_INVALID.message);
      }
      await throttle.succeeded(attempt);
      return { message: 'Unlocked.' };
    },

    async getSettings(principal: Principal): Promise<OrgSecuritySettings> {
      if (!isOrgAdmin(principal)) throw forbidden();
      return settings.get();
    },

    async putSettings(principal: Principal, value: OrgSecuritySettings): Promise<OrgSecuritySettings> {
      if (!isOrgAdmin(principal)) throw forbidden();
      const before = await settings.get();
      await db.transaction().execute(async (trx) => {
        await settings.put(trx, value, clock.now().toISOString());
        await recordAdminChange(trx, {
          actor: principal,
          action: 'organisation.security',
          entityType: 'organisation',
          entityId: 'security',
          summary: `MFA required for ED staff: ${value.mfaRequired.edStaff ? 'yes' : 'no'}; for organisation admins: ${value.mfaRequired.orgAdmin ? 'yes' : 'no'}`,
          before,
          after: value,
        });
      });
      settings.forget();
      return value;
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
