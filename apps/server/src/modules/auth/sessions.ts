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
import type { Forget, SessionRevocations } from '../../shared-state.js';

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
  /**
   * Several processes: revocations told to and heard from the others (shared-state.ts), so a signed-out
   * token or an edited user stops working on every process at once, not after principalCacheMs.
   */
  revocations?: SessionRevocations | null;
}

export function createSessions({ repo, clock, principalCacheMs, revocations }: SessionsDeps) {
  const principals = new Map<string, CachedPrincipal>();
  // Bumped by every forget: a principal read from the database before a forget is not cached after it.
  let forgets = 0;
  const forgetSessions = (match: (entry: CachedPrincipal, jti: string) => boolean) => {
    forgets += 1;
    for (const [jti, entry] of principals) if (match(entry, jti)) principals.delete(jti);
  };
  /** Applies a forget here (from this process or another one). */
  const forget = (note: Forget) => {
    if ('session' in note) forgetSessions((_entry, jti) => jti === note.session);
    else forgetSessions((entry, jti) => entry.principal.userId === note.user && jti !== note.except);
  };
  /** Here at once, and on every other process. */
  const forgetEverywhere = (note: Forget) => {
    forget(note);
    revocations?.announce(note);
  };
  revocations?.listen(forget);

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

    /** How many forgets so far: `remember` a principal only if none happened since it was read. */
    generation(): number {
      return forgets;
    },

    remember(jti: string, principal: Principal, sessionExpiresAt: string, now: Date, readAt: number): void {
      if (principalCacheMs <= 0 || forgets !== readAt) return;
      if (principals.size >= PRINCIPAL_CACHE_SIZE) principals.delete(principals.keys().next().value!);
      principals.set(jti, { principal, sessionExpiresAt, cachedAt: now.getTime() });
    },

    /** A signed-out session. */
    forget(jti: string): void {
      forgetEverywhere({ session: jti });
    },

    /**
     * Forgets the cached principals of the user, so this process's next request reads their roles,
     * memberships and disabled flag again (an administrator changed them). Other processes are told
     * (with Redis); without word from them they see the change within principalCacheMs.
     */
    forgetUser(userId: string): void {
      forgetEverywhere({ user: userId });
    },

    async revokeOtherSessions(userId: string, keepSessionId: string): Promise<number> {
      const revoked = await repo.revokeOtherSessions(userId, keepSessionId, clock.now().toISOString());
      forgetEverywhere({ user: userId, except: keepSessionId });
      return revoked;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
