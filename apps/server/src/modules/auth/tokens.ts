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

/** Bound on remembered verified tokens; the oldest entries go first. */
const VERIFIED_CACHE_SIZE = 10_000;

interface VerifiedEntry extends VerifiedToken {
  /** The claims that decide validity over time, in seconds since the epoch as in the token. */
  exp: number;
  nbf: number | undefined;
}

export function createTokenService({ secret, ttlMs }: { secret: string; ttlMs: number }): TokenService {
  // A KeyObject made once: given raw bytes, jose would import the key again on every request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // jose verifies through WebCrypto, a thread-pool round trip that was a tenth of a case write's CPU.
  // A token string whose signature checked once checks again the same way, so only its time claims
  // need a look on the next request. Only good tokens are kept: a forged one is verified in full each
  // time. Revocation is not the token's business (the session check does it), so nothing else changes.
  const verified = new Map<string, VerifiedEntry>();
  const stillValid = (entry: VerifiedEntry, now: Date): boolean => {
    const seconds = Math.floor(now.getTime() / 1000); // jose's clock, with no tolerance
    return entry.exp > seconds && (entry.nbf === undefined || entry.nbf <= seconds);
  };
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
      const known = verified.get(token);
      if (known) {
        if (stillValid(known, now)) return { userId: known.userId, jti: known.jti };
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now });
        // Our tokens always carry exp; one without would never expire, so it is not remembered.
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
        const result = { userId: payload.sub, jti: payload.jti };
        if (typeof payload.exp === 'number') {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
          verified.set(token, { ...result, exp: payload.exp, nbf: payload.nbf });
        }
        return result;
      } catch {
        return null;
      }
    },
  };
}
