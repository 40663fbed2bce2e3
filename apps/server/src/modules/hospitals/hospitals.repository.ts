/** Hospitals and their statuses. Queries only. */
import type { Kysely } from 'kysely';
import type { DB, HospitalRow } from '../../db/schema.js';

export interface StatusRow {
  id: string;
  hospital_id: string;
  status: string;
  priority: 'critical' | 'urgent';
  set_at: string;
}

export function createHospitalsRepository(db: Kysely<DB>) {
  return {
    async findByIds(ids: readonly string[]): Promise<HospitalRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('hospitals').selectAll().where('id', 'in', ids).execute();
    },

    /** Statuses not cleared, critical first, then newest first. */
    async activeStatuses(hospitalIds: readonly string[]): Promise<StatusRow[]> {
      if (hospitalIds.length === 0) return [];
      const rows = await db
        .selectFrom('hospital_statuses')
        .select(['id', 'hospital_id', 'status', 'priority', 'set_at'])
        .where('hospital_id', 'in', hospitalIds)
        .where('cleared_at', 'is', null)
        .orderBy('set_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.sort((a, b) => rank(a.priority) - rank(b.priority));
    },
  };
}

const rank = (priority: string) => (priority === 'critical' ? 0 : 1);

export type HospitalsRepository = ReturnType<typeof createHospitalsRepository>;
