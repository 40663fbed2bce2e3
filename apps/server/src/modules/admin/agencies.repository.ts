/**
 * Agencies as organisation admins change them: the agency row, its ordered hospital list, monitors,
 * EMT levels and patient info form. Queries only; every write runs on the transaction it is given, so
 * an agency change and its audit entry commit together or not at all.
 */
import type { Kysely } from 'kysely';
import type { AgencyRow, DB } from '../../db/schema.js';

import { PATIENT_INFO_FORM_TYPE } from '../agencies/agencies.service.js';

export interface MonitorWrite {
  id: string;
  name: string;
  type: string;
}

export function createAdminAgenciesRepository(db: Kysely<DB>) {
  return {
    /** Every agency with its hospital and (current) truck counts, by name. */
    async list() {
      const rows = await db
        .selectFrom('agencies')
        .select((eb) => [
          'agencies.id',
          'agencies.name',
          'agencies.complaint_set_name',
          'agencies.max_case_length',
          'agencies.updated_at',
          eb
            .selectFrom('agency_hospitals')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('agency_hospitals.agency_id', '=', 'agencies.id')
            .as('hospital_count'),
          eb
            .selectFrom('trucks')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('trucks.agency_id', '=', 'agencies.id')
            .where('trucks.retired_at', 'is', null)
            .as('truck_count'),
        ])
        .orderBy('agencies.name')
        .orderBy('agencies.id')
        .execute();
      // PostgreSQL answers count(*) as a string.
      return rows.map((r) => ({
        ...r,
        max_case_length: Number(r.max_case_length),
        hospital_count: Number(r.hospital_count ?? 0),
        truck_count: Number(r.truck_count ?? 0),
      }));
    },

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

    monitors(agencyId: string) {
      return db
        .selectFrom('monitors')
        .select(['id', 'name', 'type'])
        .where('agency_id', '=', agencyId)
        .orderBy('position')
        .orderBy('name')
        .execute();
    },

    /** The agency's first patient info form (the one crews see), with how many agencies share it. */
    async patientInfoForm(agencyId: string) {
      const form = await db
        .selectFrom('agency_forms')
        .innerJoin('forms', 'forms.id', 'agency_forms.form_id')
        .select(['forms.id', 'forms.title', 'forms.subtitle', 'forms.fields', 'agency_forms.position'])
        .where('agency_forms.agency_id', '=', agencyId)
        .where('forms.type', '=', PATIENT_INFO_FORM_TYPE)
        .orderBy('agency_forms.position')
        .orderBy('forms.id')
        .executeTakeFirst();
      if (!form) return null;
      const users = await db
        .selectFrom('agency_forms')
        .select((e) => e.fn.countAll().as('n'))
        .where('form_id', '=', form.id)
        .executeTakeFirstOrThrow();
      return { ...form, position: Number(form.position), sharedBy: Number(users.n) };
    },

    activeTrucks(agencyId: string) {
      return db
        .selectFrom('trucks')
        .select(['id', 'name', 'is_als'])
        .where('agency_id', '=', agencyId)
        .where('retired_at', 'is', null)
        .orderBy('position')
        .orderBy('name')
        .execute();
    },

    /** Which of the ids are hospitals. */
    async existingHospitalIds(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('hospitals').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => r.id));
    },

    async complaintSetExists(name: string): Promise<boolean> {
      const row = await db
        .selectFrom('complaint_sets')
        .select('id')
        .where('name', '=', name)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Monitor ids of other agencies among these (an id must stay with its agency). */
    async monitorIdsOutside(agencyId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('monitors')
        .select('id')
        .where('id', 'in', ids)
        .where('agency_id', '!=', agencyId)
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    async insertAgency(row: {
      id: string;
      name: string;
      complaint_set_name: string;
      max_case_length: number;
      emt_levels: string;
      at: string;
    }): Promise<void> {
      const { at, ...values } = row;
      await db
        .insertInto('agencies')
        .values({ ...values, created_at: at, updated_at: at })
        .execute();
    },

    async updateAgency(
      id: string,
      values: Partial<{ name: string; complaint_set_name: string; max_case_length: number; emt_levels: string }>,
      at: string,
    ): Promise<void> {
      await db
        .updateTable('agencies')
        .set({ ...values, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async replaceHospitals(agencyId: string, hospitalIds: readonly string[]): Promise<void> {
      await db.deleteFrom('agency_hospitals').where('agency_id', '=', agencyId).execute();
      if (hospitalIds.length === 0) return;
      await db
        .insertInto('agency_hospitals')
        .values(hospitalIds.map((hospitalId, position) => ({ agency_id: agencyId, hospital_id: hospitalId, position })))
        .execute();
    },

    /** The agency's monitors become exactly these, in this order; ids not listed are deleted. */
    async replaceMonitors(agencyId: string, monitors: readonly MonitorWrite[]): Promise<void> {
      const keep = monitors.map((m) => m.id);
      let remove = db.deleteFrom('monitors').where('agency_id', '=', agencyId);
      if (keep.length > 0) remove = remove.where('id', 'not in', keep);
      await remove.execute();
      for (const [position, m] of monitors.entries()) {
        const values = { agency_id: agencyId, name: m.name, type: m.type, position };
        await db
          .insertInto('monitors')
          .values({ id: m.id, ...values })
          .onConflict((oc) => oc.column('id').doUpdateSet(values))
          .execute();
      }
    },

    async updateForm(id: string, values: { title: string; subtitle: string; fields: string }): Promise<void> {
      await db.updateTable('forms').set(values).where('id', '=', id).execute();
    },

    async insertForm(row: { id: string; title: string; subtitle: string; fields: string }): Promise<void> {
      await db
        .insertInto('forms')
        .values({ ...row, type: PATIENT_INFO_FORM_TYPE })
        .execute();
    },

    async linkForm(agencyId: string, formId: string, position: number): Promise<void> {
      await db.insertInto('agency_forms').values({ agency_id: agencyId, form_id: formId, position }).execute();
    },

    async unlinkForm(agencyId: string, formId: string): Promise<void> {
      await db.deleteFrom('agency_forms').where('agency_id', '=', agencyId).where('form_id', '=', formId).execute();
    },

    /** Deletes the form when no agency uses it any more. */
    async deleteFormIfUnused(formId: string): Promise<void> {
      const used = await db
        .selectFrom('agency_forms')
        .select('agency_id')
        .where('form_id', '=', formId)
        .executeTakeFirst();
      if (!used) await db.deleteFrom('forms').where('id', '=', formId).execute();
    },
  };
}

export type AdminAgenciesRepository = ReturnType<typeof createAdminAgenciesRepository>;
