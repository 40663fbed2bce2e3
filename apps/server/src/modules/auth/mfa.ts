/**
 * MFA rules and TOTP (issue 17; decision 0025-mfa-totp). Pure functions and the organisation setting;
 * the calls are in mfa.service.ts, the sign-in step in auth.service.ts.
 *
 * - Which sessions need the second factor: those of a user who enrolled, or whose role (ED staff,
 *   organisation admin) the organisation requires it for. Only console sign-ins ask for it; a session
 *   that did not pass it (a crew-app sign-in, or a console one before enrolment) loses the ED staff and
 *   admin roles — the crew app works as before, the board and the administration do not open.
 * - A console session of a user who must enrol but has not: only who-am-I, sign-out, password change
 *   and the MFA set-up calls are answered (auth.routes.ts), like a one-time password.
 * - TOTP: RFC 6238 (SHA-1, 6 digits, 30 s), ±1 step of clock drift, and a code's step must be later than
 *   the last accepted one — a code seen over a shoulder cannot be used again.
 */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as OTPAuth from 'otpauth';
import {
  OrgSecuritySettings,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type UserRole,
} from '@inbound/contract';
import { parseJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import type { Principal } from './principal.js';

/** The roles MFA protects: they see patient data of a whole ED, or administer everyone. */
export const MFA_ROLES = ['edStaff', 'orgAdmin'] as const satisfies readonly UserRole[];

/** A new organisation requires MFA of both (the demo seed turns it off: seed/demo-data.ts). */
export const DEFAULT_ORG_SECURITY: OrgSecuritySettings = { mfaRequired: { edStaff: true, orgAdmin: true } };
export const ORG_SECURITY_KEY = 'security';

export const mfaRequiredFor = (roles: readonly UserRole[], settings: OrgSecuritySettings): boolean =>
  MFA_ROLES.some((role) => roles.includes(role) && settings.mfaRequired[role]);

export interface SessionMfa {
  /** The user has a confirmed authenticator. */
  enrolled: boolean;
  /** This session passed the second factor. */
  verified: boolean;
  /** The client the session was issued to: "hospital/web", "ems/ios", … */
  client: string;
}

/** The principal as MFA allows it for this session (see the header). */
export function gatePrincipal(principal: Principal, session: SessionMfa, settings: OrgSecuritySettings): Principal {
  if (session.verified) return principal;
  if (!session.enrolled && !mfaRequiredFor(principal.roles, settings)) return principal;
  if (session.client.startsWith('hospital/') && !session.enrolled) return { ...principal, mfaEnrolmentRequired: true };
  return {
    ...principal,
    roles: principal.roles.filter((role) => !(MFA_ROLES as readonly string[]).includes(role)),
    edHospitalIds: [],
  };
}

/** The organisation's security settings, read at most once per `cacheMs` per process. */
export function createOrgSecuritySettings(db: Kysely<DB>, cacheMs = 5_000) {
  let cached: { value: OrgSecuritySettings; at: number } | null = null;
  return {
    async get(): Promise<OrgSecuritySettings> {
      if (cached && Date.now() - cached.at < cacheMs) return cached.value;
      const row = await db
        .selectFrom('org_settings')
        .select('value')
        .where('key', '=', ORG_SECURITY_KEY)
        .executeTakeFirst();
      const parsed = OrgSecuritySettings.safeParse(parseJson<unknown>(row?.value ?? null, null));
      const value = parsed.success ? parsed.data : DEFAULT_ORG_SECURITY;
      cached = { value, at: Date.now() };
      return value;
    },
    async put(executor: Kysely<DB>, value: OrgSecuritySettings, at: string): Promise<void> {
      await executor
        .insertInto('org_settings')
        .values({ key: ORG_SECURITY_KEY, value: JSON.stringify(value), updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
        .execute();
      cached = null;
    },
    forget(): void {
      cached = null;
    },
  };
}
export type OrgSecuritySettingsStore = ReturnType<typeof createOrgSecuritySettings>;

const totpOf = (secret: string, label = '') =>
  new OTPAuth.TOTP({
    issuer: 'Inbound',
    label,
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });

/** A new secret (160 bits, base32) and its otpauth:// URI for the authenticator app. */
export function newTotpSecret(label: string): { secret: string; otpauthUri: string } {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  return { secret, otpauthUri: totpOf(secret, label).toString() };
}

/** The code's time step when it is right and later than `lastStep`; null otherwise. */
export function acceptTotp(secret: string, code: string, lastStep: number | null, nowMs: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The current code (tests, and nothing else: the server never shows a code). */
export const totpCodeAt = (secret: string, nowMs: number): string => totpOf(secret).generate({ timestamp: nowMs });

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Ten codes like `K7QM-2XDA` (40 random bits each), shown once; only their argon2id hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 8 }, () => BASE32[randomInt(32)]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  });
}

/** The form a recovery code is hashed in: upper case, no dash, no spaces. */
export const normalRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();
