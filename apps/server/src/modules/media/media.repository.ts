/** The `case_media` rows. Writes take the case write's transaction: the row commits with its event. */
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { CaseMediaTable, DB } from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

export function createMediaRepository(db: Kysely<DB>) {
  return {
    async insert(trx: Transaction<DB>, row: Insertable<CaseMediaTable>): Promise<void> {
      await trx.insertInto('case_media').values(row).execute();
    },

    /** `alongside` (optional) commits with the change, given the row as changed (the case outbox's message). */
    async update(
      id: string,
      changes: Updateable<CaseMediaTable>,
      alongside?: (trx: Transaction<DB>, row: Selectable<CaseMediaTable>) => Promise<void>,
    ): Promise<void> {
      if (!alongside) {
        await db.updateTable('case_media').set(changes).where('id', '=', id).execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('case_media')
          .set(changes)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (row) await alongside(trx, row);
      });
    },

    async findById(id: string) {
      return (await db.selectFrom('case_media').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    byCase(caseId: string, executor: Executor = db) {
      return executor
        .selectFrom('case_media')
        .selectAll()
        .where('case_id', '=', caseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async countsByType(caseId: string, executor: Executor = db): Promise<Map<string, number>> {
      const rows = await executor
        .selectFrom('case_media')
        .select(['type', (eb) => eb.fn.countAll().as('n')])
        .where('case_id', '=', caseId)
        .groupBy('type')
        .execute();
      // pg answers count(*) as a string.
      return new Map(rows.map((r) => [r.type, Number(r.n)]));
    },

    /** The recording of a call, if it has one (under the case's row lock: one recording per call). */
    async recordingOf(callId: string, executor: Executor = db) {
      return (
        (await executor.selectFrom('case_media').select('id').where('call_id', '=', callId).executeTakeFirst()) ?? null
      );
    },

    /** Uploads whose conversion has not finished: after a restart they are converted again. */
    pending() {
      return db
        .selectFrom('case_media')
        .select(['id', 'type', 'uploaded_by'])
        .where('status', '=', 'processing')
        .orderBy('created_at')
        .execute();
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
