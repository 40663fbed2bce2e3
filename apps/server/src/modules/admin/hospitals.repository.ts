/** Hospitals as admins change them. Queries only, on the transaction given. */
import type { Kysely } from 'kysely';
import type { DB, HospitalRow } from '../../db/schema.js';

export type HospitalWrite = Pick<
  HospitalRow,
  'name' | 'non_twiage' | 'ed_phone_numbers' | 'supported_features' | 'latitude' | 'longitude'
> &
  Partial<Pick<HospitalRow, 'stroke_center' | 'trauma_level'>> & { pci?: number };

export function createAdminHospitalsRepository(db: Kysely<DB>) {
  return {
    list(): Promise<HospitalRow[]> {
      return db.selectFrom('hospitals').selectAll().orderBy('name').orderBy('id').execute();
    },

    async findById(id: string): Promise<HospitalRow | null> {
      return (await db.selectFrom('hospitals').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    /** hospital id → the agencies that have it in their list. */
    async agencyIdsByHospital(hospitalIds: readonly string[]): Promise<Map<string, string[]>> {
      const byHospital = new Map<string, string[]>();
      if (hospitalIds.length === 0) return byHospital;
      const rows = await db
        .selectFrom('agency_hospitals')
        .select(['hospital_id', 'agency_id'])
        .where('hospital_id', 'in', hospitalIds)
        .orderBy('agency_id')
        .execute();
      for (const row of rows)
        byHospital.set(row.hospital_id, [...(byHospital.get(row.hospital_id) ?? []), row.agency_id]);
      return byHospital;
    },

    async insert(row: HospitalWrite & { id: string; status_channel_id: string; at: string }): Promise<void> {
      const { at, ...values } = row;
      await db
        .insertInto('hospitals')
        .values({ ...values, created_at: at, updated_at: at })
        .execute();
    },

    async update(id: string, values: Partial<HospitalWrite>, at: string): Promise<void> {
      await db
        .updateTable('hospitals')
        .set({ ...values, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type AdminHospitalsRepository = ReturnType<typeof createAdminHospitalsRepository>;
