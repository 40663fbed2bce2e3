/** Sessions (one per issued token) and the per-account sign-in failure counter. Queries only. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface SessionRecord {
  jti: string;
  userId: string;
  expiresAt: string;
  revokedAt: string | null;
}

export function createAuthRepository(db: Kysely<DB>) {
  return {
    async createSession(session: {
      jti: string;
      userId: string;
      createdAt: string;
      expiresAt: string;
      client: string;
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
        })
        .execute();
    },

    async findSession(jti: string): Promise<SessionRecord | null> {
      const row = await db
        .selectFrom('sessions')
        .select(['jti', 'user_id', 'expires_at', 'revoked_at'])
        .where('jti', '=', jti)
        .executeTakeFirst();
      return row ? { jti: row.jti, userId: row.user_id, expiresAt: row.expires_at, revokedAt: row.revoked_at } : null;
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

    /** Failures counted for this account in the window that is still open at `now`. */
    async failuresSince(accountKey: string, windowStart: string): Promise<number> {
      const row = await db
        .selectFrom('sign_in_throttle')
        .select(['failures', 'window_started_at'])
        .where('account_key', '=', accountKey)
        .executeTakeFirst();
      return row && row.window_started_at > windowStart ? Number(row.failures) : 0;
    },

    /** One more failure; a window that has closed starts again at 1. Atomic on both databases. */
    async recordFailure(accountKey: string, now: string, windowStart: string): Promise<void> {
      await db
        .insertInto('sign_in_throttle')
        .values({ account_key: accountKey, failures: 1, window_started_at: now })
        .onConflict((oc) =>
          oc.column('account_key').doUpdateSet({
            failures: sql<number>`case when sign_in_throttle.window_started_at > ${windowStart} then sign_in_throttle.failures + 1 else 1 end`,
            window_started_at: sql<string>`case when sign_in_throttle.window_started_at > ${windowStart} then sign_in_throttle.window_started_at else ${now} end`,
          }),
        )
        .execute();
    },

    async clearFailures(accountKey: string): Promise<void> {
      await db.deleteFrom('sign_in_throttle').where('account_key', '=', accountKey).execute();
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
