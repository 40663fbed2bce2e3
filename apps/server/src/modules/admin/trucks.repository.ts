/** An agency's trucks as admins change them. Queries only, on the transaction given. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export function createAdminTrucksRepository(db: Kysely<DB>) {
  return {
    agencyExists: async (agencyId: string) =>
      (await db.selectFrom('agencies').select('id').where('id', '=', agencyId).executeTakeFirst()) !== undefined,

    /** A truck of the agency that is not retired. */
    findActive(agencyId: string, truckId: string) {
      return db
        .selectFrom('trucks')
        .select(['id', 'name', 'is_als'])
        .where('id', '=', truckId)
        .where('agency_id', '=', agencyId)
        .where('retired_at', 'is', null)
        .executeTakeFirst();
    },

    /** Another current truck of the agency with this name (case-insensitive), if any. */
    async sameName(agencyId: string, name: string, exceptId: string | null): Promise<boolean> {
      const rows = await db
        .selectFrom('trucks')
        .select(['id', 'name'])
        .where('agency_id', '=', agencyId)
        .where('retired_at', 'is', null)
        .execute();
      const key = name.trim().toLowerCase();
      return rows.some((r) => r.id !== exceptId && r.name.trim().toLowerCase() === key);
    },

    async nextPosition(agencyId: string): Promise<number> {
      const row = await db
        .selectFrom('trucks')
        .select((e) => e.fn.max('position').as('max'))
        .where('agency_id', '=', agencyId)
        .executeTakeFirst();
      return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
    },

    async insert(row: { id: string; agency_id: string; name: string; is_als: number; position: number }) {
      await db
        .insertInto('trucks')
        .values({ ...row, retired_at: null })
        .execute();
    },

    async update(truckId: string, values: Partial<{ name: string; is_als: number }>) {
      await db.updateTable('trucks').set(values).where('id', '=', truckId).execute();
    },

    /** The case number of an open case on the truck, or null. */
    async openCaseNumber(truckId: string): Promise<string | null> {
      const row = await db
        .selectFrom('cases')
        .select('case_number')
        .where('truck_id', '=', truckId)
        .where('closed_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return row?.case_number ?? null;
    },

    async usedByAnyCase(truckId: string): Promise<boolean> {
      const row = await db.selectFrom('cases').select('id').where('truck_id', '=', truckId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async retire(truckId: string, at: string) {
      await db.updateTable('trucks').set({ retired_at: at }).where('id', '=', truckId).execute();
    },

    async delete(truckId: string) {
      await db.deleteFrom('trucks').where('id', '=', truckId).execute();
    },
  };
}

export type AdminTrucksRepository = ReturnType<typeof createAdminTrucksRepository>;
