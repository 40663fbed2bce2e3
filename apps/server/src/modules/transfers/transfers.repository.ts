/** Case transfers. Queries only; a transition is one conditional UPDATE, so two racing changes cannot both win. */
import { type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { CaseTransfersTable, DB } from '../../db/schema.js';

export type TransferRow = Selectable<CaseTransfersTable>;

export function createTransfersRepository(db: Kysely<DB>) {
  return {
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    async findById(id: string): Promise<TransferRow | null> {
      return (await db.selectFrom('case_transfers').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async findLiveByCode(code: string) {
      return (
        (await db.selectFrom('case_transfers').selectAll().where('live_code', '=', code).executeTakeFirst()) ?? null
      );
    },

    /** The newest transfer that used the code, live or not (to tell "expired" from "never existed"). */
    async findNewestByCode(code: string) {
      return (
        (await db
          .selectFrom('case_transfers')
          .selectAll()
          .where('code', '=', code)
          .orderBy('created_at', 'desc')
          .executeTakeFirst()) ?? null
      );
    },

    async findLiveForCase(caseId: string) {
      return (
        (await db.selectFrom('case_transfers').selectAll().where('live_case_id', '=', caseId).executeTakeFirst()) ??
        null
      );
    },

    async insert(row: Insertable<CaseTransfersTable>): Promise<void> {
      await db.insertInto('case_transfers').values(row).execute();
    },

    /**
     * Applies `changes` only if the transfer is still in the state the caller saw (status, request
     * status and requester); answers whether it did.
     */
    async transition(
      trx: Transaction<DB>,
      seen: Pick<TransferRow, 'id' | 'status' | 'request_status' | 'request_user_id'>,
      changes: Updateable<CaseTransfersTable>,
    ): Promise<boolean> {
      let query = trx
        .updateTable('case_transfers')
        .set(changes)
        .where('id', '=', seen.id)
        .where('status', '=', seen.status);
      query =
        seen.request_status === null
          ? query.where('request_status', 'is', null)
          : query.where('request_status', '=', seen.request_status);
      query =
        seen.request_user_id === null
          ? query.where('request_user_id', 'is', null)
          : query.where('request_user_id', '=', seen.request_user_id);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Open transfers whose lifetime has run out. */
    dueForExpiry(now: string, limit: number) {
      return db
        .selectFrom('case_transfers')
        .selectAll()
        .where('status', '=', 'open')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
    },
  };
}

export type TransfersRepository = ReturnType<typeof createTransfersRepository>;
