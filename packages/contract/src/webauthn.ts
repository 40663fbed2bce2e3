/**
 * WebAuthn (security keys, the device's own fingerprint/face/PIN authenticator) as a second factor of the
 * hospital console beside TOTP (issue 17; decision 0032). Several named authenticators per user. The
 * browser's JSON forms of the ceremonies (`PublicKeyCredentialCreationOptionsJSON`, …) pass through as
 * objects; the server checks them with @simplewebauthn/server. Every value is bounded here.
 *
 * Sign-in with a key: the password first (`POST /v4/auth/mfa/webauthn/signin-options` with the username
 * and password answers a challenge for that user's keys), then the sign-in body carries `webauthn`.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { Id } from './entities.js';

/** Short-lived: a challenge not answered within this is refused (and it is single-use). */
export const WEBAUTHN_CHALLENGE_TTL_MS = 2 * 60_000;
export const WEBAUTHN_MAX_CREDENTIALS = 10;

export const WEBAUTHN_INVALID = {
  code: 'mfa_invalid',
  message: 'That security key was not accepted. Try again, or use a code from your authenticator app.',
} as const;

const Base64Url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

/** The name the user gives an authenticator ("YubiKey on my lanyard", "Triage PC"). */
export const WebAuthnCredentialName = z.string().trim().min(1, 'name the key').max(60);

const Transports = z.array(z.string().max(16)).max(8).optional();

/** The browser's answer to `navigator.credentials.create` (RegistrationResponseJSON), bounded. */
export const WebAuthnRegistrationResponse = z.object({
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(16_384),
    authenticatorData: Base64Url(8192).optional(),
    transports: Transports,
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: Base64Url(4096).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** The browser's answer to `navigator.credentials.get` (AuthenticationResponseJSON), bounded. */
export const WebAuthnAuthenticationResponse = z.object({
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(8192),
    signature: Base64Url(2048),
    userHandle: Base64Url(256).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** The sign-in body's WebAuthn factor. */
export const WebAuthnAssertion = z.object({ challengeId: Id, response: WebAuthnAuthenticationResponse });

/** Options for the browser, passed through as the server library made them. */
const CeremonyOptions = z.record(z.string(), z.unknown());

export const WebAuthnRegisterOptionsBody = z.object({ password: z.string().min(1).max(256) });
export const WebAuthnCeremony = z.object({ challengeId: Id, options: CeremonyOptions });
export type WebAuthnCeremony = z.infer<typeof WebAuthnCeremony>;

export const WebAuthnRegisterBody = z.object({
  challengeId: Id,
  name: WebAuthnCredentialName,
  response: WebAuthnRegistrationResponse,
});

export const WebAuthnCredential = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type WebAuthnCredential = z.infer<typeof WebAuthnCredential>;

export const WebAuthnRegistered = z.object({
  credential: WebAuthnCredential,
  /** The first second factor of the user: ten recovery codes, shown once. Otherwise empty. */
  recoveryCodes: z.array(z.string()),
});
export const WebAuthnCredentials = z.object({ credentials: z.array(WebAuthnCredential) });
export const WebAuthnCredentialParams = z.object({ credentialId: Base64Url(1400) });

export const WebAuthnSignInOptionsBody = z.object({
  username: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(256),
});

const Ok = z.object({ message: z.string() });

export const webAuthnRoutes = {
  webAuthnRegisterOptions: {
    method: 'POST',
    path: '/v4/auth/mfa/webauthn/register-options',
    summary: 'Start adding a security key or this device (password again); answers the creation options',
    auth: true,
    body: WebAuthnRegisterOptionsBody,
    response: WebAuthnCeremony,
  },
  webAuthnRegister: {
    method: 'POST',
    path: '/v4/auth/mfa/webauthn/register',
    summary: "Finish adding a security key with the browser's answer; the first factor also answers recovery codes",
    auth: true,
    body: WebAuthnRegisterBody,
    response: WebAuthnRegistered,
  },
  webAuthnCredentials: {
    method: 'GET',
    path: '/v4/auth/mfa/webauthn/credentials',
    summary: "The signed-in user's security keys",
    auth: true,
    response: WebAuthnCredentials,
  },
  webAuthnRemoveCredential: {
    method: 'DELETE',
    path: '/v4/auth/mfa/webauthn/credentials/:credentialId',
    summary: 'Remove one of your security keys (a session that passed the second factor)',
    auth: true,
    params: WebAuthnCredentialParams,
    response: Ok,
  },
  webAuthnSignInOptions: {
    method: 'POST',
    path: '/v4/auth/mfa/webauthn/signin-options',
    summary: "After the right password: a challenge for the user's security keys (then sign in with `webauthn`)",
    auth: false,
    body: WebAuthnSignInOptionsBody,
    response: WebAuthnCeremony,
  },
} as const satisfies Record<string, RouteDef>;
