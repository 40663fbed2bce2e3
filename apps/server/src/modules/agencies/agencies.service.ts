/**
 * Teams (EMS agencies) and their trucks. A user reads the agencies they are a member or an admin of;
 * organisation admins read every agency. Another agency's id → 403, an id that exists nowhere → 404.
 */
import type { DynamicForm, PatientInfoField, Team, Truck } from '@inbound/contract';
import { fromFlag, parseJson } from '../../db/json.js';
import { createVersionedCache } from '../../db/reference-version.js';
import { forbidden, notFound } from '../../errors.js';
import { isOnTeam, isOrgAdmin, type Principal } from '../auth/principal.js';
import type { HospitalsService } from '../hospitals/hospitals.service.js';
import type { AgenciesRepository } from './agencies.repository.js';

export const PATIENT_INFO_FORM_TYPE = 'patientInfo';

export interface AgenciesServiceDeps {
  repo: AgenciesRepository;
  hospitals: Pick<HospitalsService, 'hospitalsByIds'>;
}

/** Agencies whose answers are kept (each a few KB). */
const CACHED_AGENCIES = 1_000;

export function createAgenciesService({ repo, hospitals }: AgenciesServiceDeps) {
  // Read at every crew app start, changed only by an admin edit or a hospital status: kept per agency
  // until the database's reference version moves (null: no such agency).
  const teams = createVersionedCache<Team | null>(repo.referenceVersion, CACHED_AGENCIES);
  const truckLists = createVersionedCache<Truck[] | null>(repo.referenceVersion, CACHED_AGENCIES);
  const setNamesOfTeams = createVersionedCache<string[]>(repo.referenceVersion, CACHED_AGENCIES);

  async function loadTeam(agencyId: string): Promise<Team | null> {
    const agency = await repo.findById(agencyId);
    if (!agency) return null;
    const [hospitalIds, monitors, forms] = await Promise.all([
      repo.hospitalIds(agencyId),
      repo.monitors(agencyId),
      repo.forms(agencyId),
    ]);
    const dynamicForms: DynamicForm[] = forms.map((f) => ({
      _id: f.id,
      id: f.id,
      type: f.type,
      title: f.title,
      subtitle: f.subtitle,
      fields: parseJson<PatientInfoField[]>(f.fields, []),
    }));
    const patientInfo = dynamicForms.find((f) => f.type === PATIENT_INFO_FORM_TYPE);
    return {
      id: agency.id,
      _id: agency.id,
      name: agency.name,
      hospitals: await hospitals.hospitalsByIds(hospitalIds),
      complaintSet: agency.complaint_set_name,
      maxCaseLength: Number(agency.max_case_length),
      monitors: monitors.map((m) => ({ _id: m.id, name: m.name, type: m.type })),
      // `?fields=dynamicForms` is what the crew app sends; we always include them (they are small).
      dynamicForms,
      patientInfoForm: patientInfo
        ? { id: patientInfo.id, title: patientInfo.title, subtitle: patientInfo.subtitle, fields: patientInfo.fields }
        : null,
      codeVital: { emtLevels: parseJson<{ name: string }[]>(agency.emt_levels, []) },
    };
  }

  async function loadTrucks(agencyId: string): Promise<Truck[] | null> {
    if (!(await repo.findById(agencyId))) return null;
    const rows = await repo.trucks(agencyId);
    return rows.map((t) => ({ id: t.id, _id: t.id, name: t.name, isALS: fromFlag(t.is_als) }));
  }

  /** Another agency's id → 403, an id that exists nowhere → 404 (checked in that order). */
  function requireReadable<T>(principal: Principal, agencyId: string, answer: T | null): T {
    if (answer === null) throw notFound('Team');
    if (!isOnTeam(principal, agencyId) && !isOrgAdmin(principal)) throw forbidden();
    return answer;
  }

  return {
    async getTeam(principal: Principal, agencyId: string): Promise<Team> {
      return requireReadable(principal, agencyId, await teams.get(agencyId, () => loadTeam(agencyId)));
    },

    async getTrucks(principal: Principal, agencyId: string): Promise<Truck[]> {
      return requireReadable(principal, agencyId, await truckLists.get(agencyId, () => loadTrucks(agencyId)));
    },

    agencyIdsDeliveringTo: (hospitalId: string) => repo.agencyIdsDeliveringTo(hospitalId),

    // ---- for the case module (no access check: the case service checks its own) ----------------

    /** The agency with what a new case needs from it; null when there is no such agency. */
    async agencyForCase(
      agencyId: string,
    ): Promise<{ id: string; complaintSetName: string; truckIds: string[] } | null> {
      const agency = await repo.findById(agencyId);
      if (!agency) return null;
      const trucks = await repo.trucks(agencyId);
      return { id: agency.id, complaintSetName: agency.complaint_set_name, truckIds: trucks.map((t) => t.id) };
    },

    hospitalIds: (agencyId: string) => repo.hospitalIds(agencyId),

    monitors: (agencyId: string) => repo.monitors(agencyId),

    /** The agency's patient info forms (type patientInfo) with their fields. */
    async patientInfoForms(agencyId: string): Promise<{ id: string; fields: PatientInfoField[] }[]> {
      const forms = await repo.forms(agencyId);
      return forms
        .filter((f) => f.type === PATIENT_INFO_FORM_TYPE)
        .map((f) => ({ id: f.id, fields: parseJson<PatientInfoField[]>(f.fields, []) }));
    },

    /** The complaint-set names the given agencies use (every complaint-set read asks). */
    complaintSetNames: (agencyIds: readonly string[]) =>
      setNamesOfTeams.get(agencyIds.join('\n'), () => repo.complaintSetNames(agencyIds)),
  };
}

export type AgenciesService = ReturnType<typeof createAgenciesService>;
