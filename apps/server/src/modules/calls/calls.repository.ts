/** The `calls` table: a call's state moves ringing → connected → ended by conditional updates. */
import type { Kysely, Transaction } from 'kysely';
import type { CallsTable, DB } from '../../db/schema.js';

export type CallRow = CallsTable;

export function createCallsRepository(db: Kysely<DB>) {
  return {
    async insert(row: CallRow): Promise<void> {
      await db.insertInto('calls').values(row).execute();
    },

    async findById(id: string, executor: Kysely<DB> | Transaction<DB> = db): Promise<CallRow | null> {
      return (await executor.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    /** The case's calls that have not ended (at most one, by the partial unique index). */
    live(caseId: string): Promise<CallRow[]> {
      return db.selectFrom('calls').selectAll().where('case_id', '=', caseId).where('state', '!=', 'ended').execute();
    },

    /** Ringing → connected for this user; false when someone else was first (or it ended). */
    async answer(id: string, userId: string, name: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('calls')
        .set({ state: 'connected', answered_by_user_id: userId, answered_by_name: name, answered_at: at })
        .where('id', '=', id)
        .where('state', '=', 'ringing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** → ended, once: false when it had ended already. */
    async end(trx: Transaction<DB>, id: string, outcome: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('calls')
        .set({ state: 'ended', outcome, ended_at: at })
        .where('id', '=', id)
        .where('state', '!=', 'ended')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type CallsRepository = ReturnType<typeof createCallsRepository>;
