/**
 * Signing in and out, and turning a request's token into a principal.
 *
 * A token is valid when its signature and expiry check out AND its session row is neither revoked nor
 * expired AND its user still exists and is enabled. Wrong credentials answer one message whether the
 * user exists or not, and take the same time (an argon2 verify runs either way).
 */
import {
  MFA_INVALID,
  MFA_REQUIRED,
  PASSWORD_CHANGE_REQUIRED,
  serverMessages,
  tokenFromAuthorization,
  WEBAUTHN_INVALID,
  type SignInBody,
  type SignInResponse,
  type WebAuthnCeremony,
  type UserRole,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { AppError, tooManyRequests, unauthorized } from '../../errors.js';
import type { AuthRepository, SessionRecord } from './auth.repository.js';
import { gatePrincipal, type OrgSecuritySettingsStore } from './mfa.js';
import type { Principal } from './principal.js';
import type { Sessions } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { TokenService } from './tokens.js';
import type { SecurityEvent } from '../audit/security-audit.js';

export interface AuthServiceDeps {
  repo: AuthRepository;
  tokens: TokenService;
  clock: Clock;
  users: {
    findSignInCandidate(login: string): Promise<{
      id: string;
      passwordHash: string;
      disabled: boolean;
      roles: UserRole[];
      oneTimePasswordExpiresAt: string | null;
    } | null>;
    loadPrincipal(userId: string, sessionId: string): Promise<Principal | null>;
  };
  passwords: {
    verify(hash: string, password: string): Promise<boolean>;
    verifyAgainstDummy(password: string): Promise<void>;
  };
  /** Counts failed sign-ins and says how long the next attempt must wait (sign-in-throttle.ts). */
  throttle: SignInThrottle;
  /** The cache of checked tokens' principals and the revocations that empty it (sessions.ts). */
  sessions: Sessions;
  /** The security audit log (modules/audit/security-audit.ts): sign-ins, failed ones and sign-outs. */
  securityAudit?: (event: SecurityEvent) => Promise<void>;
  /** MFA (mfa.ts): without it no second factor is asked and no principal is narrowed. */
  mfa?: {
    settings: OrgSecuritySettingsStore;
    enrolled(userId: string): Promise<boolean>;
    acceptSecondFactor(
      userId: string,
      factor: Pick<SignInBody, 'otp' | 'recoveryCode' | 'webauthn'>,
    ): Promise<'otp' | 'recoveryCode' | 'webauthn' | null>;
    /** A sign-in challenge for the user's security keys (webauthn.ts); 409 when they have none. */
    webAuthnSignInOptions(userId: string): Promise<WebAuthnCeremony>;
  };
}

export function createAuthService({
  repo,
  tokens,
  clock,
  users,
  passwords,
  throttle,
  sessions,
  securityAudit,
  mfa,
}: AuthServiceDeps) {
  /** The principal as the session's MFA state allows (mfa.ts, gatePrincipal). */
  const gated = async (principal: Principal, session: SessionRecord): Promise<Principal> => {
    if (!mfa) return principal;
    const verified = session.mfaAt !== null;
    const state = { enrolled: session.mfaEnrolled, verified, client: session.client };
    return { ...gatePrincipal(principal, state, await mfa.settings.get()), mfaVerified: verified };
  };

  /** The principal behind an `Authorization: JWT …` header; throws 401 for anything less. */
  async function authenticate(authorization: string | undefined): Promise<Principal> {
    const token = tokenFromAuthorization(authorization);
    if (!token) throw unauthorized(serverMessages.authRequired);
    const now = clock.now();
    const verified = await tokens.verify(token, now);
    if (!verified) throw unauthorized(serverMessages.tokenInvalid);
    const cached = sessions.cached(verified.jti, now);
    if (cached) return cached;
    const generation = sessions.generation();
    // Both reads at once: PostgreSQL overlaps them; this runs on every authenticated request.
    const [session, loaded] = await Promise.all([
      repo.findSession(verified.jti),
      users.loadPrincipal(verified.userId, verified.jti),
    ]);
    if (
      !session ||
      session.userId !== verified.userId ||
      session.revokedAt !== null ||
      session.expiresAt <= now.toISOString()
    ) {
      throw unauthorized(serverMessages.tokenInvalid);
    }
    if (!loaded) throw unauthorized(serverMessages.tokenInvalid);
    const principal = await gated(loaded, session);
    sessions.remember(verified.jti, principal, session.expiresAt, now, generation);
    return principal;
  }

  /** The password step of sign-in (throttled, failures counted and audited); the account once it is right. */
  async function checkPassword(
    body: { username: string; password: string; twiageClient: string },
    address: string,
    now: Date,
  ) {
    const typedName = body.username.trim().toLowerCase();
    const candidate = await users.findSignInCandidate(typedName);
    const attempt = { userId: candidate?.id ?? null, typedName, address };
    const waitMs = await throttle.waitMs(attempt);
    if (waitMs > 0) throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(waitMs / 1000));

    const passwordOk = candidate
      ? await passwords.verify(candidate.passwordHash, body.password)
      : (await passwords.verifyAgainstDummy(body.password), false);
    if (!candidate || !passwordOk) {
      await throttle.failed(attempt);
      // The typed name stays out (it is sometimes a password typed in the wrong field).
      await securityAudit?.({
        actorId: candidate?.id ?? null,
        action: 'auth.signInFailed',
        entityType: 'user',
        entityId: candidate?.id ?? 'unknown',
        detail: { address, client: body.twiageClient, reason: candidate ? 'password' : 'noAccount' },
        at: now,
      });
      throw unauthorized(serverMessages.invalidCredentials);
    }
    return { candidate, attempt };
  }

  return {
    /**
     * `POST /v4/auth/mfa/webauthn/signin-options`: the console's first step with a security key — the
     * password, checked and counted as at sign-in, then a challenge for the user's keys.
     */
    async webAuthnSignInOptions(body: { username: string; password: string }, address: string) {
      if (!mfa) throw new AppError(404, 'not_found', serverMessages.notFound('Security keys'));
      const { candidate } = await checkPassword({ ...body, twiageClient: 'hospital' }, address, clock.now());
      if (candidate.disabled) throw new AppError(403, 'forbidden', serverMessages.accountDisabled);
      return mfa.webAuthnSignInOptions(candidate.id);
    },

    /** `address`: the client's address, one half of the account × address throttle. */
    async signIn(body: SignInBody, address: string): Promise<SignInResponse> {
      const now = clock.now();
      const { candidate, attempt } = await checkPassword(body, address, now);
      // Said only to someone who knows the password: a disabled account is not a secret from its owner.
      if (candidate.disabled) throw new AppError(403, 'forbidden', serverMessages.accountDisabled);
      // An invitation or reset left unused for 72 h: the administrator issues a new one.
      if (candidate.oneTimePasswordExpiresAt !== null && candidate.oneTimePasswordExpiresAt <= now.toISOString()) {
        throw unauthorized(serverMessages.oneTimePasswordExpired);
      }
      // The console shows patient data of a whole ED: only its staff and organisation admins get a token for it.
      if (
        body.twiageClient === 'hospital' &&
        !candidate.roles.some((role) => role === 'edStaff' || role === 'orgAdmin')
      ) {
        throw new AppError(403, 'forbidden', serverMessages.notHospitalStaff);
      }

      // The console's second factor, once the password is right: an enrolled user must give a code.
      let mfaAt: string | null = null;
      if (mfa && body.twiageClient === 'hospital' && (await mfa.enrolled(candidate.id))) {
        if (body.otp === undefined && body.recoveryCode === undefined && body.webauthn === undefined)
          throw new AppError(401, 'mfa_required', MFA_REQUIRED.message);
        const factor = await mfa.acceptSecondFactor(candidate.id, {
          otp: body.otp,
          recoveryCode: body.recoveryCode,
          webauthn: body.webauthn,
        });
        if (!factor) {
          await throttle.failed(attempt);
          await securityAudit?.({
            actorId: candidate.id,
            action: 'auth.signInFailed',
            entityType: 'user',
            entityId: candidate.id,
            detail: { address, client: body.twiageClient, reason: body.webauthn ? 'securityKey' : 'secondFactor' },
            at: now,
          });
          throw new AppError(401, 'mfa_invalid', body.webauthn ? WEBAUTHN_INVALID.message : MFA_INVALID.message);
        }
        mfaAt = now.toISOString();
      }

      await throttle.succeeded(attempt);
      const issued = await tokens.issue(candidate.id, now);
      await repo.createSession({
        jti: issued.jti,
        userId: candidate.id,
        createdAt: now.toISOString(),
        expiresAt: issued.expiresAt.toISOString(),
        client: `${body.twiageClient}/${body.platform}`,
        mfaAt,
      });
      await securityAudit?.({
        actorId: candidate.id,
        action: 'auth.signIn',
        entityType: 'session',
        entityId: issued.jti,
        detail: { address, client: `${body.twiageClient}/${body.platform}`, mfa: mfaAt !== null },
        at: now,
      });
      return { authorizationToken: { token: issued.token, expirationDate: issued.expiresAt.toISOString() } };
    },

    authenticate,

    /** The principal of a live session of the user (not revoked, not expired, user enabled); null otherwise. */
    async sessionPrincipal(userId: string, sessionId: string): Promise<Principal | null> {
      const session = await repo.findSession(sessionId);
      if (
        !session ||
        session.userId !== userId ||
        session.revokedAt !== null ||
        session.expiresAt <= clock.now().toISOString()
      ) {
        return null;
      }
      const loaded = await users.loadPrincipal(userId, sessionId);
      return loaded && gated(loaded, session);
    },

    async signOut(principal: Principal): Promise<void> {
      await repo.revokeSession(principal.sessionId, clock.now().toISOString());
      sessions.forget(principal.sessionId);
      await securityAudit?.({
        actorId: principal.userId,
        action: 'auth.signOut',
        entityType: 'session',
        entityId: principal.sessionId,
        at: clock.now(),
      });
    },

    /**
     * For the real-time gateway: the principal of a socket's auth frame. An account that must still
     * change its one-time password gets no live data either.
     */
    async authenticateLive(authorization: string | undefined): Promise<Principal> {
      const principal = await authenticate(authorization);
      if (principal.mustChangePassword) throw unauthorized(PASSWORD_CHANGE_REQUIRED.message);
      return principal;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
