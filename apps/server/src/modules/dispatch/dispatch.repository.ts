/** Dispatched cases (case_dispatches) and the names the console shows with them. Queries only. */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { CaseDispatchesTable, DB } from '../../db/schema.js';

export type DispatchRow = Selectable<CaseDispatchesTable>;

export function createDispatchRepository(db: Kysely<DB>) {
  return {
    /** Runs `work` in one transaction: the dispatch and its broadcast, or the claim and its case. */
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    async insert(trx: Transaction<DB>, row: Insertable<CaseDispatchesTable>): Promise<void> {
      await trx.insertInto('case_dispatches').values(row).execute();
    },

    async findById(id: string): Promise<DispatchRow | null> {
      return (await db.selectFrom('case_dispatches').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async findByNumber(caseNumber: string): Promise<DispatchRow | null> {
      return (
        (await db.selectFrom('case_dispatches').selectAll().where('case_number', '=', caseNumber).executeTakeFirst()) ??
        null
      );
    },

    /**
     * Marks the dispatch claimed by the case, if nobody has: answers whether this call did. Two crews
     * racing: the second's update matches no row (PostgreSQL re-checks `case_id is null` after the
     * first commits; SQLite runs one writer at a time).
     */
    async claim(trx: Transaction<DB>, id: string, caseId: string, userId: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('case_dispatches')
        .set({ case_id: caseId, claimed_by: userId, claimed_at: at })
        .where('id', '=', id)
        .where('case_id', 'is', null)
        // A cancelled dispatch is not claimed (the cancel and the claim: whichever updates first wins).
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Cancels the dispatch and marks its broadcast, if no crew has claimed it: answers whether it did. */
    async cancel(trx: Transaction<DB>, row: DispatchRow, byName: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('case_dispatches')
        .set({ cancelled_at: at, cancelled_by_name: byName })
        .where('id', '=', row.id)
        .where('case_id', 'is', null)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.updateTable('broadcasts').set({ cancelled_at: at }).where('id', '=', row.broadcast_id).execute();
      return true;
    },

    /** The hospital's dispatches made since `since`, newest first. */
    async forHospital(hospitalId: string, since: string, limit: number): Promise<DispatchRow[]> {
      return db
        .selectFrom('case_dispatches')
        .selectAll()
        .where('hospital_id', '=', hospitalId)
        .where('created_at', '>=', since)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async agencyNames(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('agencies').select(['id', 'name']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** The truck of each claimed case, by case id. */
    async caseTrucks(caseIds: readonly string[]): Promise<Map<string, string>> {
      if (caseIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('cases')
        .innerJoin('trucks', 'trucks.id', 'cases.truck_id')
        .select(['cases.id', 'trucks.name'])
        .where('cases.id', 'in', caseIds)
        .execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type DispatchRepository = ReturnType<typeof createDispatchRepository>;
