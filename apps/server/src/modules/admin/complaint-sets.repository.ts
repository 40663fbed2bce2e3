/** Complaint sets as admins list, export and import them. Queries only, on the transaction given. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export function createAdminComplaintSetsRepository(db: Kysely<DB>) {
  return {
    /** The newest version of every set, by name. */
    async newestVersions() {
      const rows = await db
        .selectFrom('complaint_sets as s')
        .select(['s.id', 's.name', 's.version', 's.complaints', 's.created_at'])
        .where((eb) =>
          eb(
            's.version',
            '=',
            eb
              .selectFrom('complaint_sets as newer')
              .select((e) => e.fn.max('newer.version').as('v'))
              .whereRef('newer.name', '=', 's.name'),
          ),
        )
        .orderBy('s.name')
        .execute();
      return rows.map((r) => ({ ...r, version: Number(r.version) }));
    },

    async newestByName(name: string) {
      const row = await db
        .selectFrom('complaint_sets')
        .select(['id', 'name', 'version', 'complaints', 'created_at'])
        .where('name', '=', name)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { ...row, version: Number(row.version) } : null;
    },

    agenciesUsing() {
      return db.selectFrom('agencies').select(['id', 'name', 'complaint_set_name']).orderBy('name').execute();
    },

    async insert(row: { id: string; name: string; version: number; complaints: string; created_at: string }) {
      await db.insertInto('complaint_sets').values(row).execute();
    },
  };
}

export type AdminComplaintSetsRepository = ReturnType<typeof createAdminComplaintSetsRepository>;
