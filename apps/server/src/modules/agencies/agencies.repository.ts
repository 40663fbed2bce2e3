/** Agencies (teams) with their hospital list, trucks, monitors and forms. Queries only. */
import type { Kysely } from 'kysely';
import type { AgencyRow, DB } from '../../db/schema.js';

export function createAgenciesRepository(db: Kysely<DB>) {
  return {
    async findById(id: string): Promise<AgencyRow | null> {
      return (await db.selectFrom('agencies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async hospitalIds(agencyId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('agency_hospitals')
        .select('hospital_id')
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('hospital_id')
        .execute();
      return rows.map((r) => r.hospital_id);
    },

    async agencyIdsDeliveringTo(hospitalId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('agency_hospitals')
        .select('agency_id')
        .where('hospital_id', '=', hospitalId)
        .execute();
      return rows.map((r) => r.agency_id);
    },

    async complaintSetNames(agencyIds: readonly string[]): Promise<string[]> {
      if (agencyIds.length === 0) return [];
      const rows = await db
        .selectFrom('agencies')
        .select('complaint_set_name')
        .distinct()
        .where('id', 'in', agencyIds)
        .execute();
      return rows.map((r) => r.complaint_set_name);
    },

    trucks(agencyId: string) {
      return db
        .selectFrom('trucks')
        .select(['id', 'name', 'is_als'])
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('name')
        .execute();
    },

    monitors(agencyId: string) {
      return db
        .selectFrom('monitors')
        .select(['id', 'name', 'type'])
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('name')
        .execute();
    },

    forms(agencyId: string) {
      return db
        .selectFrom('agency_forms')
        .innerJoin('forms', 'forms.id', 'agency_forms.form_id')
        .select(['forms.id', 'forms.type', 'forms.title', 'forms.subtitle', 'forms.fields'])
        .where('agency_forms.agency_id', '=', agencyId)
        .orderBy('agency_forms.position')
        .orderBy('forms.id')
        .execute();
    },
  };
}

export type AgenciesRepository = ReturnType<typeof createAgenciesRepository>;
