/** The crew's hand-over watches (decision 0038): queries only. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { HandoffWatchesTable } from './handoff-watch.schema.js';

export function createHandoffWatchRepository(db: Kysely<DB>) {
  return {
    /** Stores the watch unless its token is stored already (a retried request); answers its expiry. */
    async insertOnce(row: HandoffWatchesTable): Promise<string> {
      await db
        .insertInto('handoff_watches')
        .values(row)
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .execute();
      const stored = await db
        .selectFrom('handoff_watches')
        .select('expires_at')
        .where('token_hash', '=', row.token_hash)
        .executeTakeFirstOrThrow();
      return stored.expires_at;
    },

    /** Drops the watches past their expiry (called as new ones are issued: the table stays small). */
    async deleteExpired(now: string): Promise<void> {
      await db.deleteFrom('handoff_watches').where('expires_at', '<=', now).execute();
    },

    /** The user's unexpired watch of that token hash, with its case's hand-over as it is now. */
    async find(tokenHash: string, userId: string, now: string) {
      return db
        .selectFrom('handoff_watches as w')
        .innerJoin('cases', 'cases.id', 'w.case_id')
        .select([
          'w.hospital_id',
          'w.hospital_name',
          'w.expires_at',
          'cases.destination_hospital_id',
          'cases.handoff_at',
          'cases.handoff_by_name',
        ])
        .where('w.token_hash', '=', tokenHash)
        .where('w.user_id', '=', userId)
        .where('w.expires_at', '>', now)
        .executeTakeFirst();
    },
  };
}

export type HandoffWatchRepository = ReturnType<typeof createHandoffWatchRepository>;
