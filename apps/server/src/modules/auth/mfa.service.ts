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

export interface MfaServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  throttle: SignInThrottle;
  settings: OrgSecuritySettingsStore;
  securityAudit: (event: SecurityEvent) => Promise<void>;
  /** Drops the user's cached principals (their MFA state changed). */
  forgetUser(userId: string): void;
}

export function createMfaService({
  db,
  clock,
  passwords,
  throttle,
  settings,
  securityAudit,
  forgetUser,
}: MfaServiceDeps) {
  const user = async (userId: string) => {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash', 'totp_secret', 'totp_pending_secret', 'totp_last_step'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('User');
    return row;
  };
  const throttled = async (attempt: { userId: string; typedName: string; address: string }) => {
    const waitMs = await throttle.waitMs(attempt);
    if (waitMs > 0) throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(waitMs / 1000));
  };

  /** Accepts a TOTP code (moving the last step on, so it is never accepted again) or an unused recovery code. */
  async function acceptSecondFactor(
    userId: string,
    factor: { otp?: string | undefined; recoveryCode?: string | undefined },
  ): Promise<'otp' | 'recoveryCode' | null> {
    const now = clock.now();
    const row = await user(userId);
    if (!row.totp_secret) return null;
    if (factor.otp !== undefined) {
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

    /** What sign-in needs: is an authenticator confirmed. */
    async enrolled(userId: string): Promise<boolean> {
      return (await user(userId)).totp_secret != null;
    },

    async status(principal: Principal, sessionVerified: boolean, roles: readonly UserRole[]): Promise<MfaStatus> {
      const row = await user(principal.userId);
      const left = await db
        .selectFrom('mfa_recovery_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', principal.userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return {
        enrolled: row.totp_secret != null,
        required: mfaRequiredFor(roles, await settings.get()),
        verified: sessionVerified,
        recoveryCodesLeft: Number(left?.n ?? 0),
      };
    },

    async setup(principal: Principal, password: string, address: string) {
      const row = await user(principal.userId);
      const attempt = { userId: row.id, typedName: row.username.toLowerCase(), address };
      await throttled(attempt);
      if (!(await passwords.verify(row.password_hash, password))) {
        await throttle.failed(attempt);
        throw badRequest(serverMessages.currentPasswordWrong);
      }
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
      const recoveryCodes = newRecoveryCodes();
      const hashes = await Promise.all(recoveryCodes.map((c) => passwords.hash(normalRecoveryCode(c))));
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
        await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', row.id).execute();
        await trx
          .insertInto('mfa_recovery_codes')
          .values(
            hashes.map((code_hash) => ({
              id: randomUUID(),
              user_id: row.id,
              code_hash,
              created_at: now.toISOString(),
              used_at: null,
            })),
          )
          .execute();
        // The session that set it up has just shown a code: it passed the second factor.
        await trx
          .updateTable('sessions')
          .set({ mfa_at: now.toISOString() })
          .where('jti', '=', principal.sessionId)
          .execute();
      });
      forgetUser(row.id);
      await securityAudit({ actorId: row.id, action: 'mfa.enrol', entityType: 'user', entityId: row.id, at: now });
      return { recoveryCodes };
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
