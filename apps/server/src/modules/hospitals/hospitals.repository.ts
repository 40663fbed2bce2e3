/** Hospitals and their statuses. Queries only. */
import type { Kysely } from 'kysely';
import { prepareListQuery } from '../../db/prepared.js';
import type { DB, HospitalRow } from '../../db/schema.js';

export interface StatusRow {
  id: string;
  hospital_id: string;
  status: string;
  priority: 'critical' | 'urgent';
  set_at: string;
}

export function createHospitalsRepository(db: Kysely<DB>) {
  // Every team read asks for its hospitals and their statuses: built and compiled once per list length.
  const hospitalsByIds = prepareListQuery(db, (ids) => db.selectFrom('hospitals').selectAll().where('id', 'in', ids));
  const activeStatusesOf = prepareListQuery(db, (hospitalIds) =>
    db
      .selectFrom('hospital_statuses')
      .select(['id', 'hospital_id', 'status', 'priority', 'set_at'])
      .where('hospital_id', 'in', hospitalIds)
      .where('cleared_at', 'is', null)
      .orderBy('set_at', 'desc')
      .orderBy('id'),
  );
  return {
    async findByIds(ids: readonly string[]): Promise<HospitalRow[]> {
      if (ids.length === 0) return [];
      return hospitalsByIds(ids);
    },

    async insertStatus(row: StatusRow): Promise<void> {
      await db
        .insertInto('hospital_statuses')
        .values({ ...row, cleared_at: null })
        .execute();
    },

    /** Clears an active status of the hospital; answers whether there was one to clear. */
    async clearStatus(hospitalId: string, statusId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('hospital_statuses')
        .set({ cleared_at: at })
        .where('id', '=', statusId)
        .where('hospital_id', '=', hospitalId)
        .where('cleared_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Statuses not cleared, critical first, then newest first. */
    async activeStatuses(hospitalIds: readonly string[]): Promise<StatusRow[]> {
      if (hospitalIds.length === 0) return [];
      const rows = await activeStatusesOf(hospitalIds);
      return rows.sort((a, b) => rank(a.priority) - rank(b.priority));
    },
  };
}

const rank = (priority: string) => (priority === 'critical' ? 0 : 1);

export type HospitalsRepository = ReturnType<typeof createHospitalsRepository>;
