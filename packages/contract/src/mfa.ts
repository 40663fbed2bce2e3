/**
 * Multi-factor authentication for the hospital console (issue 17): TOTP (RFC 6238, 6 digits, 30 s) with
 * one-time recovery codes, required per role by the organisation's setting. The crew app is unaffected:
 * MFA is asked only on console sign-ins (`twiageClient: 'hospital'`); a session that did not pass it
 * carries no ED staff or admin rights.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { Id } from './entities.js';
import { WebAuthnAssertion } from './webauthn.js';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** The console locks after this long without input (HIPAA automatic logoff). */
export const CONSOLE_IDLE_LOCK_MS = 15 * 60_000;

export const MFA_REQUIRED = {
  code: 'mfa_required',
  message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
} as const;
export const MFA_INVALID = { code: 'mfa_invalid', message: 'That code is not right. Try the newest code.' } as const;
export const MFA_ENROLMENT_REQUIRED = {
  code: 'mfa_enrolment_required',
  message: 'Your organisation requires two-step sign-in: set up an authenticator app before you continue.',
} as const;

export const TotpCode = z.string().regex(/^\d{6}$/, 'a 6-digit code');
/** As shown: 4+4 letters/digits with a dash; typed with or without it, any case. */
export const RecoveryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/, 'a recovery code like ABCD-EFGH');

/** The second factor of a console sign-in (added to the sign-in body; the crew app never sends it). */
export const SignInSecondFactor = z.object({
  otp: TotpCode.optional(),
  recoveryCode: RecoveryCode.optional(),
  /** A security key's answer to the challenge of `webAuthnSignInOptions` (webauthn.ts). */
  webauthn: WebAuthnAssertion.optional(),
});

export const MfaStatus = z.object({
  enrolled: z.boolean(),
  /** The organisation requires MFA for one of the user's roles. */
  required: z.boolean(),
  /** This session passed the second factor. */
  verified: z.boolean(),
  recoveryCodesLeft: z.number().int().nonnegative(),
  /** An authenticator app is set up. */
  totp: z.boolean(),
  /** How many security keys / device authenticators (WebAuthn) are registered. */
  webauthnKeys: z.number().int().nonnegative(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;

export const TotpSetupBody = z.object({ password: z.string().min(1).max(256) });
export const TotpSetup = z.object({
  /** base32, for typing into the app by hand. */
  secret: z.string(),
  /** otpauth://totp/… for a QR code. */
  otpauthUri: z.string(),
});
export const TotpConfirmBody = z.object({ code: TotpCode });
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

/** Unlocking the idle-locked console: the password, or a current TOTP code. */
export const ReauthBody = z
  .object({ password: z.string().min(1).max(256).optional(), otp: TotpCode.optional() })
  .refine((body) => (body.password === undefined) !== (body.otp === undefined), 'give the password or a code');

export const OrgSecuritySettings = z.object({
  /** Roles that must use MFA on the console. A new organisation: both true. */
  mfaRequired: z.object({ edStaff: z.boolean(), orgAdmin: z.boolean() }),
});
export type OrgSecuritySettings = z.infer<typeof OrgSecuritySettings>;

const Ok = z.object({ message: z.string() });

/** New recovery codes for the signed-in user (password again); the old ones stop working at once. */
export const RegenerateRecoveryCodesBody = z.object({ password: z.string().min(1).max(256) });
export const AdminUserMfaParams = z.object({ id: Id });

export const mfaRoutes = {
  mfaStatus: {
    method: 'GET',
    path: '/v4/auth/mfa',
    summary: "The signed-in user's MFA state",
    auth: true,
    response: MfaStatus,
  },
  totpSetup: {
    method: 'POST',
    path: '/v4/auth/mfa/totp/setup',
    summary: 'Start setting up an authenticator app (password again); answers the secret',
    auth: true,
    body: TotpSetupBody,
    response: TotpSetup,
  },
  totpConfirm: {
    method: 'POST',
    path: '/v4/auth/mfa/totp/confirm',
    summary: 'Confirm the authenticator with its first code; answers recovery codes, shown once',
    auth: true,
    body: TotpConfirmBody,
    response: RecoveryCodes,
  },
  reauth: {
    method: 'POST',
    path: '/v4/auth/reauth',
    summary: 'Unlock the idle-locked console with the password or a code',
    auth: true,
    body: ReauthBody,
    response: Ok,
  },
  regenerateRecoveryCodes: {
    method: 'POST',
    path: '/v4/auth/mfa/recovery-codes',
    summary: 'New recovery codes (password again); the old ones stop working at once. Shown once',
    auth: true,
    body: RegenerateRecoveryCodesBody,
    response: RecoveryCodes,
  },
  adminClearUserMfa: {
    method: 'DELETE',
    path: '/v4/admin/users/:id/mfa',
    summary:
      "Clear a user's second factors (lost phone or key): they set up again at their next sign-in (organisation admins)",
    auth: true,
    params: AdminUserMfaParams,
    response: Ok,
  },
  orgSecuritySettings: {
    method: 'GET',
    path: '/v4/admin/security-settings',
    summary: "The organisation's security settings (organisation admins)",
    auth: true,
    response: OrgSecuritySettings,
  },
  updateOrgSecuritySettings: {
    method: 'PUT',
    path: '/v4/admin/security-settings',
    summary: "Change the organisation's security settings (organisation admins)",
    auth: true,
    body: OrgSecuritySettings,
    response: OrgSecuritySettings,
  },
} as const satisfies Record<string, RouteDef>;
