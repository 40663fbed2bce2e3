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

    /** The hospital's ringing calls, the oldest first (the console's ring on load). */
    ringingAt(hospitalId: string, limit: number): Promise<CallRow[]> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('hospital_id', '=', hospitalId)
        .where('state', '=', 'ringing')
        .orderBy('started_at')
        .limit(limit)
        .execute();
    },

    /** Ringing → connected for this user; false when someone else was first (or it ended). */
    async answer(id: string, userId: string, name: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('calls')
        .set({ state: 'connected', answered_by_user_id: userId, answered_by_name: name, answered_at: at, alive_at: at })
        .where('id', '=', id)
        .where('state', '=', 'ringing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** A party of the connected call is still in it. */
    async alive(id: string, at: string): Promise<void> {
      await db
        .updateTable('calls')
        .set({ alive_at: at })
        .where('id', '=', id)
        .where('state', '=', 'connected')
        .execute();
    },

    /** Connected calls nobody kept alive since `aliveBefore`, and rings started before `ringBefore`. */
    stale(aliveBefore: string, ringBefore: string): Promise<CallRow[]> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where((eb) =>
          eb.or([
            // alive_at null: answered before the column existed (current() then goes by answered_at).
            eb.and([
              eb('state', '=', 'connected'),
              eb.or([eb('alive_at', '<=', aliveBefore), eb('alive_at', 'is', null)]),
            ]),
            eb.and([eb('state', '=', 'ringing'), eb('started_at', '<', ringBefore)]),
          ]),
        )
        .limit(100)
        .execute();
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
