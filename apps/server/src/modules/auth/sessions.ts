/**
 * Signed-in sessions as auth and users (and the user admin) share them: the cache of checked tokens'
 * principals and the revocations that must empty it. Its own module so that auth (which fills the
 * cache) and users (whose password change revokes other sessions) both depend on it, not on each other.
 *
 * Every read of the console and the crew app checks its token; the session and membership reads were
 * most of a read's cost. Sign-out and password changes in this process drop entries at once; another
 * process (behind a load balancer) sees a revocation or a disabled user within `principalCacheMs`.
 */
import type { Clock } from '../../clock.js';
import type { AuthRepository } from './auth.repository.js';
import type { Principal } from './principal.js';

/** Bound on cached principals; the oldest entries go first. */
const PRINCIPAL_CACHE_SIZE = 10_000;

interface CachedPrincipal {
  principal: Principal;
  sessionExpiresAt: string;
  cachedAt: number;
}

export interface SessionsDeps {
  repo: Pick<AuthRepository, 'revokeOtherSessions'>;
  clock: Clock;
  /** How long a checked token's principal is reused without reading the database again (0: never). */
  principalCacheMs: number;
}

export function createSessions({ repo, clock, principalCacheMs }: SessionsDeps) {
  const principals = new Map<string, CachedPrincipal>();
  const forgetSessions = (match: (entry: CachedPrincipal, jti: string) => boolean) => {
    for (const [jti, entry] of principals) if (match(entry, jti)) principals.delete(jti);
  };

  return {
    /** The principal checked for this token less than `principalCacheMs` ago, if its session still runs. */
    cached(jti: string, now: Date): Principal | null {
      const entry = principals.get(jti);
      if (!entry) return null;
      if (now.getTime() - entry.cachedAt >= principalCacheMs || entry.sessionExpiresAt <= now.toISOString()) {
        principals.delete(jti);
        return null;
      }
      return entry.principal;
    },

    remember(jti: string, principal: Principal, sessionExpiresAt: string, now: Date): void {
      if (principalCacheMs <= 0) return;
      if (principals.size >= PRINCIPAL_CACHE_SIZE) principals.delete(principals.keys().next().value!);
      principals.set(jti, { principal, sessionExpiresAt, cachedAt: now.getTime() });
    },

    /** A signed-out session. */
    forget(jti: string): void {
      principals.delete(jti);
    },

    /**
     * Forgets the cached principals of the user, so this process's next request reads their roles,
     * memberships and disabled flag again (an administrator changed them). Other processes see the
     * change within principalCacheMs.
     */
    forgetUser(userId: string): void {
      forgetSessions((entry) => entry.principal.userId === userId);
    },

    async revokeOtherSessions(userId: string, keepSessionId: string): Promise<number> {
      const revoked = await repo.revokeOtherSessions(userId, keepSessionId, clock.now().toISOString());
      forgetSessions((entry, jti) => entry.principal.userId === userId && jti !== keepSessionId);
      return revoked;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
