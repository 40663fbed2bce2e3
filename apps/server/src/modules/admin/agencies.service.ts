/**
 * Organisation admins create and edit agencies (issue 5 item 8). Every change runs in one transaction
 * with its audit entry: references are checked inside it (hospitals, the complaint set, monitor ids),
 * and a bad one rolls everything back with a 400 naming the field — never a half-written agency.
 *
 * Crews read the result unchanged in shape through GET /v4/emsAgencies/{id}: that answer is built from
 * these tables on every request and its serialized-body cache is keyed by content (decision 0013), so
 * an edit is what the next read returns, with a new ETag.
 *
 * The patient info form may be shared by several agencies (the demo's is): editing it for one agency
 * gives that agency its own copy, so the others' crews see no change they did not ask for.
 */
import { randomUUID } from 'node:crypto';
import type {
  AdminAgency,
  AdminAgencySummary,
  AdminCreateAgencyBody,
  AdminUpdateAgencyBody,
  PatientInfoField,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, parseJson, toJson } from '../../db/json.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { Transactional } from '../../db/transactional.js';
import { recordAdminChange } from './audit.js';
import type { AdminAgenciesRepository, MonitorWrite } from './agencies.repository.js';

export interface AdminAgenciesServiceDeps {
  /** Built once by the composition root: reads, and the transaction each change commits in. */
  repo: Transactional<AdminAgenciesRepository>;
  clock: Clock;
  newId?: () => string;
}

export function requireOrgAdmin(principal: Principal): void {
  if (!isOrgAdmin(principal)) throw forbidden();
}

/** The agency as the console edits it (and as the audit log records it: no patient data in it). */
export async function readAdminAgency(repo: AdminAgenciesRepository, id: string): Promise<AdminAgency | null> {
  const row = await repo.findById(id);
  if (!row) return null;
  const [hospitalIds, monitors, form, trucks] = await Promise.all([
    repo.hospitalIds(id),
    repo.monitors(id),
    repo.patientInfoForm(id),
    repo.activeTrucks(id),
  ]);
  return {
    id: row.id,
    name: row.name,
    complaintSet: row.complaint_set_name,
    maxCaseLength: Number(row.max_case_length),
    hospitalIds,
    monitors: monitors.map((m) => ({ id: m.id, name: m.name, type: m.type })),
    emtLevels: parseJson<{ name: string }[]>(row.emt_levels, []),
    patientInfoForm: form
      ? {
          id: form.id,
          title: form.title,
          subtitle: form.subtitle,
          fields: parseJson<PatientInfoField[]>(form.fields, []),
        }
      : null,
    trucks: trucks.map((t) => ({ id: t.id, name: t.name, isALS: fromFlag(t.is_als) })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createAdminAgenciesService({ repo: store, clock, newId = randomUUID }: AdminAgenciesServiceDeps) {
  const reader = store.read;

  /** Checks what the body refers to, on the transaction that will write it. */
  async function checkReferences(repo: AdminAgenciesRepository, agencyId: string, body: AdminUpdateAgencyBody) {
    if (body.hospitalIds) {
      const known = await repo.existingHospitalIds(body.hospitalIds);
      const index = body.hospitalIds.findIndex((id) => !known.has(id));
      if (index >= 0)
        throw badRequest(`body.hospitalIds.${index}: no hospital has the id "${body.hospitalIds[index]}"`);
    }
    if (body.complaintSet !== undefined && !(await repo.complaintSetExists(body.complaintSet))) {
      throw badRequest(`body.complaintSet: no complaint set is named "${body.complaintSet}"`);
    }
    if (body.monitors) {
      const given = body.monitors.flatMap((m) => (m.id ? [m.id] : []));
      const foreign = await repo.monitorIdsOutside(agencyId, given);
      const index = body.monitors.findIndex((m) => m.id !== undefined && foreign.has(m.id));
      if (index >= 0)
        throw badRequest(`body.monitors.${index}.id: "${body.monitors[index]?.id}" is another agency's monitor`);
      const seen = new Set<string>();
      for (const [i, m] of body.monitors.entries()) {
        if (m.id === undefined) continue;
        if (seen.has(m.id)) throw badRequest(`body.monitors.${i}.id: monitor "${m.id}" is listed twice`);
        seen.add(m.id);
      }
    }
  }

  async function writeLists(repo: AdminAgenciesRepository, agencyId: string, body: AdminUpdateAgencyBody) {
    if (body.hospitalIds) await repo.replaceHospitals(agencyId, body.hospitalIds);
    if (body.monitors) {
      const monitors: MonitorWrite[] = body.monitors.map((m) => ({ id: m.id ?? newId(), name: m.name, type: m.type }));
      await repo.replaceMonitors(agencyId, monitors);
    }
    if (body.patientInfoForm !== undefined) {
      const current = await repo.patientInfoForm(agencyId);
      const next = body.patientInfoForm;
      if (next === null) {
        if (current) {
          await repo.unlinkForm(agencyId, current.id);
          await repo.deleteFormIfUnused(current.id);
        }
      } else {
        const values = { title: next.title, subtitle: next.subtitle, fields: toJson(next.fields) };
        if (current && current.sharedBy <= 1) {
          await repo.updateForm(current.id, values);
        } else {
          // No form yet, or one other agencies share: this agency gets its own.
          const id = `form-${newId()}`;
          await repo.insertForm({ id, ...values });
          if (current) await repo.unlinkForm(agencyId, current.id);
          await repo.linkForm(agencyId, id, current?.position ?? 0);
        }
      }
    }
  }

  return {
    async list(principal: Principal): Promise<AdminAgencySummary[]> {
      requireOrgAdmin(principal);
      const rows = await reader.list();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        complaintSet: r.complaint_set_name,
        maxCaseLength: r.max_case_length,
        hospitalCount: r.hospital_count,
        truckCount: r.truck_count,
        updatedAt: r.updated_at,
      }));
    },

    async get(principal: Principal, id: string): Promise<AdminAgency> {
      requireOrgAdmin(principal);
      const agency = await readAdminAgency(reader, id);
      if (!agency) throw notFound('Agency');
      return agency;
    },

    async create(principal: Principal, body: AdminCreateAgencyBody): Promise<AdminAgency> {
      requireOrgAdmin(principal);
      const id = newId();
      const at = clock.now().toISOString();
      return store.transaction(async (repo, trx) => {
        await checkReferences(repo, id, body);
        await repo.insertAgency({
          id,
          name: body.name,
          complaint_set_name: body.complaintSet,
          max_case_length: body.maxCaseLength,
          emt_levels: toJson(body.emtLevels),
          at,
        });
        await writeLists(repo, id, body);
        const after = (await readAdminAgency(repo, id))!;
        await recordAdminChange(trx, {
          actor: principal,
          action: 'agency.create',
          entityType: 'agency',
          entityId: id,
          summary: `Created agency ${body.name}`,
          after,
          at: clock.now(),
        });
        return after;
      });
    },

    async update(principal: Principal, id: string, body: AdminUpdateAgencyBody): Promise<AdminAgency> {
      requireOrgAdmin(principal);
      const at = clock.now().toISOString();
      return store.transaction(async (repo, trx) => {
        const before = await readAdminAgency(repo, id);
        if (!before) throw notFound('Agency');
        await checkReferences(repo, id, body);
        await repo.updateAgency(
          id,
          {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.complaintSet !== undefined ? { complaint_set_name: body.complaintSet } : {}),
            ...(body.maxCaseLength !== undefined ? { max_case_length: body.maxCaseLength } : {}),
            ...(body.emtLevels !== undefined ? { emt_levels: toJson(body.emtLevels) } : {}),
          },
          at,
        );
        await writeLists(repo, id, body);
        const after = (await readAdminAgency(repo, id))!;
        const changed = changedKeys(before, after, EDITABLE);
        await recordAdminChange(trx, {
          actor: principal,
          action: 'agency.update',
          entityType: 'agency',
          entityId: id,
          summary: `Updated agency ${after.name}: ${changed.length > 0 ? changed.join(', ') : 'no change'}`,
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, after[k]])),
          at: clock.now(),
        });
        return after;
      });
    },
  };
}

export type AdminAgenciesService = ReturnType<typeof createAdminAgenciesService>;

const EDITABLE = [
  'name',
  'complaintSet',
  'maxCaseLength',
  'hospitalIds',
  'monitors',
  'emtLevels',
  'patientInfoForm',
] as const;

/** The keys whose values differ: an update's audit entry keeps just those, before and after. */
export function changedKeys<T extends object, K extends keyof T>(before: T, after: T, keys: readonly K[]): K[] {
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}
