/** Agencies (teams) with their hospital list, trucks, monitors and forms. Queries only. */
import type { Kysely } from 'kysely';
import { prepareListQuery, prepareQuery } from '../../db/prepared.js';
import type { AgencyRow, DB } from '../../db/schema.js';
import { referenceVersionOf } from '../../db/reference-version.js';

export function createAgenciesRepository(db: Kysely<DB>) {
  // The team and trucks reads (every crew app start) run these: built and compiled once (db/prepared.ts).
  const agencyById = prepareQuery(db, (id: string) => db.selectFrom('agencies').selectAll().where('id', '=', id), 1);
  const hospitalIdsOf = prepareQuery(
    db,
    (agencyId: string) =>
      db
        .selectFrom('agency_hospitals')
        .select('hospital_id')
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('hospital_id'),
    1,
  );
  const trucksOf = prepareQuery(
    db,
    (agencyId: string) =>
      db
        .selectFrom('trucks')
        .select(['id', 'name', 'is_als'])
        .where('agency_id', '=', agencyId)
        // A retired truck stays for the cases that name it, but no crew picks it any more.
        .where('retired_at', 'is', null)
        .orderBy('position')
        .orderBy('name'),
    1,
  );
  const monitorsOf = prepareQuery(
    db,
    (agencyId: string) =>
      db
        .selectFrom('monitors')
        .select(['id', 'name', 'type'])
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('name'),
    1,
  );
  const formsOf = prepareQuery(
    db,
    (agencyId: string) =>
      db
        .selectFrom('agency_forms')
        .innerJoin('forms', 'forms.id', 'agency_forms.form_id')
        .select(['forms.id', 'forms.type', 'forms.title', 'forms.subtitle', 'forms.fields'])
        .where('agency_forms.agency_id', '=', agencyId)
        .orderBy('agency_forms.position')
        .orderBy('forms.id'),
    1,
  );

  // Every complaint-set read checks the user's teams' set names.
  const complaintSetNamesOf = prepareListQuery(db, (agencyIds) =>
    db.selectFrom('agencies').select('complaint_set_name').distinct().where('id', 'in', agencyIds),
  );

  return {
    /** The database's reference version (db/reference-version.ts): caches of this data key on it. */
    referenceVersion: referenceVersionOf(db),

    async findById(id: string): Promise<AgencyRow | null> {
      return (await agencyById(id))[0] ?? null;
    },

    async hospitalIds(agencyId: string): Promise<string[]> {
      const rows = await hospitalIdsOf(agencyId);
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
      const rows = await complaintSetNamesOf(agencyIds);
      return rows.map((r) => r.complaint_set_name);
    },

    trucks: (agencyId: string) => trucksOf(agencyId),

    monitors: (agencyId: string) => monitorsOf(agencyId),

    forms: (agencyId: string) => formsOf(agencyId),
  };
}

export type AgenciesRepository = ReturnType<typeof createAgenciesRepository>;
