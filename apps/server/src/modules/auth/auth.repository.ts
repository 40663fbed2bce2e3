/** Sessions (one per issued token), sign-in failure counters and known sign-in addresses. Queries only. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface SessionRecord {
  jti: string;
  userId: string;
  expiresAt: string;
  revokedAt: string | null;
  /** "hospital/web", "ems/ios", … */
  client: string;
  /** When the session passed the second factor; null: password only. */
  mfaAt: string | null;
  /** The user has a confirmed authenticator. */
  mfaEnrolled: boolean;
}

export function createAuthRepository(db: Kysely<DB>) {
  return {
    async createSession(session: {
      jti: string;
      userId: string;
      createdAt: string;
      expiresAt: string;
      client: string;
      mfaAt?: string | null;
    }) {
      await db
        .insertInto('sessions')
        .values({
          jti: session.jti,
          user_id: session.userId,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          revoked_at: null,
          client: session.client,
          mfa_at: session.mfaAt ?? null,
        })
        .execute();
    },

    async findSession(jti: string): Promise<SessionRecord | null> {
      const row = await db
        .selectFrom('sessions')
        .leftJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.jti',
          'sessions.user_id',
          'sessions.expires_at',
          'sessions.revoked_at',
          'sessions.client',
          'sessions.mfa_at',
          'users.totp_secret',
        ])
        .where('sessions.jti', '=', jti)
        .executeTakeFirst();
      return row
        ? {
            jti: row.jti,
            userId: row.user_id,
            expiresAt: row.expires_at,
            revokedAt: row.revoked_at,
            client: row.client,
            mfaAt: row.mfa_at ?? null,
            mfaEnrolled: row.totp_secret != null,
          }
        : null;
    },

    async revokeSession(jti: string, at: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('jti', '=', jti)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** Revokes every live session of the user except `keepJti`; answers how many. */
    async revokeOtherSessions(userId: string, keepJti: string, at: string): Promise<number> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('user_id', '=', userId)
        .where('jti', '!=', keepJti)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async countLiveSessions(userId: string, now: string): Promise<number> {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The failures counted under `key` in the window still open (started after `windowStart`), if any. */
    async failureState(
      key: string,
      windowStart: string,
    ): Promise<{ failures: number; windowStartedAt: string; lastFailedAt: string } | null> {
      const row = await db
        .selectFrom('sign_in_throttle')
        .select(['failures', 'window_started_at', 'last_failed_at'])
        .where('account_key', '=', key)
        .executeTakeFirst();
      if (!row || row.window_started_at <= windowStart) return null;
      return {
        failures: Number(row.failures),
        windowStartedAt: row.window_started_at,
        lastFailedAt: row.last_failed_at ?? row.window_started_at,
      };
    },

    /** One more failure; a window that has closed starts again at 1. Atomic on both databases. */
    async recordFailure(key: string, now: string, windowStart: string): Promise<void> {
      await db
        .insertInto('sign_in_throttle')
        .values({ account_key: key, failures: 1, window_started_at: now, last_failed_at: now })
        .onConflict((oc) =>
          oc.column('account_key').doUpdateSet({
            failures: sql<number>`case when sign_in_throttle.window_started_at > ${windowStart} then sign_in_throttle.failures + 1 else 1 end`,
            window_started_at: sql<string>`case when sign_in_throttle.window_started_at > ${windowStart} then sign_in_throttle.window_started_at else ${now} end`,
            last_failed_at: now,
          }),
        )
        .execute();
    },

    async isKnownAddress(userId: string, address: string, since: string): Promise<boolean> {
      const row = await db
        .selectFrom('known_sign_ins')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('address', '=', address)
        .where('last_signed_in_at', '>', since)
        .executeTakeFirst();
      return row !== undefined;
    },

    async rememberAddress(userId: string, address: string, at: string): Promise<void> {
      await db
        .insertInto('known_sign_ins')
        .values({ user_id: userId, address, last_signed_in_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_signed_in_at: at }))
        .execute();
    },

    async clearFailures(accountKey: string): Promise<void> {
      await db.deleteFrom('sign_in_throttle').where('account_key', '=', accountKey).execute();
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
