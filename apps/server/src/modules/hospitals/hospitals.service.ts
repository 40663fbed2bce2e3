/**
 * Hospitals and their statuses. Who may read one: its ED staff, organisation admins, and crews whose
 * teams deliver to it — the same people who will see it in a team's hospital list.
 */
import {
  StrokeCenterLevel,
  type Feature,
  type Hospital,
  type HospitalCapabilities,
  type HospitalStatus,
  type HospitalStatusesResponse,
} from '@inbound/contract';
import { fromFlag, parseJson } from '../../db/json.js';
import type { HospitalRow } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { HospitalsRepository, StatusRow } from './hospitals.repository.js';

export interface HospitalsServiceDeps {
  repo: HospitalsRepository;
  /** From the agencies module: which agencies deliver to a hospital. */
  agencies: { agencyIdsDeliveringTo(hospitalId: string): Promise<string[]> };
}

export function createHospitalsService({ repo, agencies }: HospitalsServiceDeps) {
  async function requireReadable(principal: Principal, hospitalId: string): Promise<HospitalRow> {
    const [row] = await repo.findByIds([hospitalId]);
    if (!row) throw notFound('Hospital');
    if (isOrgAdmin(principal) || principal.edHospitalIds.includes(hospitalId)) return row;
    const delivering = await agencies.agencyIdsDeliveringTo(hospitalId);
    if (delivering.some((id) => principal.teamIds.includes(id))) return row;
    throw forbidden();
  }

  /** Hospitals in the order asked, each with its active statuses; unknown ids are left out. */
  async function hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> {
    const [rows, statuses] = await Promise.all([repo.findByIds(ids), repo.activeStatuses(ids)]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row
        ? [
            toHospital(
              row,
              statuses.filter((s) => s.hospital_id === id),
            ),
          ]
        : [];
    });
  }

  return {
    hospitalsByIds,

    async getHospital(principal: Principal, hospitalId: string): Promise<Hospital> {
      const row = await requireReadable(principal, hospitalId);
      return toHospital(row, await repo.activeStatuses([hospitalId]));
    },

    async getStatuses(principal: Principal, hospitalId: string): Promise<HospitalStatusesResponse> {
      await requireReadable(principal, hospitalId);
      return { hospitalId, activeStatuses: (await repo.activeStatuses([hospitalId])).map(toStatus) };
    },
  };
}

export type HospitalsService = ReturnType<typeof createHospitalsService>;

function toStatus(row: StatusRow): HospitalStatus {
  return { _id: row.id, status: row.status, priority: row.priority, setAt: row.set_at };
}

function toHospital(row: HospitalRow, statuses: StatusRow[]): Hospital {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    nonTwiage: fromFlag(row.non_twiage),
    statusChannelId: row.status_channel_id,
    edPhoneNumbers: parseJson(row.ed_phone_numbers, []),
    activeStatuses: statuses.map(toStatus),
    supportedFeatures: parseJson<Feature[]>(row.supported_features, []),
    location:
      row.latitude !== null && row.longitude !== null
        ? { latitude: Number(row.latitude), longitude: Number(row.longitude) }
        : null,
    capabilities: capabilitiesOf(row),
  };
}

/** The row's capability columns as the contract has them (an unknown stored level reads as none). */
export function capabilitiesOf(row: Pick<HospitalRow, 'stroke_center' | 'pci' | 'trauma_level'>): HospitalCapabilities {
  const level = StrokeCenterLevel.safeParse(row.stroke_center);
  const trauma = row.trauma_level === null || row.trauma_level === undefined ? null : Number(row.trauma_level);
  return {
    strokeCenter: level.success ? level.data : null,
    pci: fromFlag(row.pci),
    traumaLevel: trauma !== null && trauma >= 1 && trauma <= 5 ? trauma : null,
  };
}
