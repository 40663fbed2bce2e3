/**
 * JWTs: HS256, subject = user id, jti = the session row that can revoke it. The token alone proves
 * nothing — the hook also checks its session — so a stolen token dies with sign-out or a password change.
 */
import { createSecretKey, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

export interface VerifiedToken {
  userId: string;
  jti: string;
}

export interface TokenService {
  issue(userId: string, now: Date): Promise<IssuedToken>;
  /** Null for anything not valid now: forged, malformed, expired, wrong algorithm. */
  verify(token: string, now: Date): Promise<VerifiedToken | null>;
}

export function createTokenService({ secret, ttlMs }: { secret: string; ttlMs: number }): TokenService {
  // A KeyObject made once: given raw bytes, jose would import the key again on every request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    async issue(userId, now) {
      const jti = randomUUID();
      const expiresAt = new Date(now.getTime() + ttlMs);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setJti(jti)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, jti, expiresAt };
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
        return { userId: payload.sub, jti: payload.jti };
      } catch {
        return null;
      }
    },
  };
}
