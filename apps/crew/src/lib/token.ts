/** Token validity (spec §4): a token whose expiry has passed is invalid. */
import type { AuthToken } from '@inbound/contract';

/** The `exp` claim of a JWT in epoch milliseconds, or null when the token carries none or is not a JWT. */
export function jwtExpiryMs(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Valid when present and neither the stored expirationDate nor the JWT's own `exp` has passed. */
export function isTokenValid(auth: AuthToken | null | undefined, now: number = Date.now()): boolean {
  if (!auth?.token) return false;
  const expiration = Date.parse(auth.expirationDate);
  if (!Number.isNaN(expiration) && expiration <= now) return false;
  const exp = jwtExpiryMs(auth.token);
  return exp === null || exp > now;
}
