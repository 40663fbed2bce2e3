/**
 * Organisation admins create and edit hospitals: name, nonTwiage, the §3 features, ED phone numbers
 * and location. Each change is one transaction with its audit entry.
 *
 * Crews and ED staff read hospitals straight from these rows on every request (team hospital lists,
 * GET /v4/hospitals/{id}, the board, case publishing's on-platform check); the serialized team answer
 * is keyed by content (decision 0013). So a change reaches them with the next read — nothing to flush.
 * The status channel id is made once, at creation, from the hospital id, and never changes.
 */
import { randomUUID } from 'node:crypto';
import {
  HOSPITAL_FEATURES,
  type AdminCreateHospitalBody,
  type AdminHospital,
  type AdminUpdateHospitalBody,
  type Feature,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, parseJson, toFlag, toJson } from '../../db/json.js';
import type { HospitalRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import { changedKeys, requireOrgAdmin } from './agencies.service.js';
import type { Transactional } from '../../db/transactional.js';
import { capabilitiesOf } from '../hospitals/hospitals.service.js';
import { recordAdminChange } from './audit.js';
import type { AdminHospitalsRepository, HospitalWrite } from './hospitals.repository.js';

export interface AdminHospitalsServiceDeps {
  /** Built once by the composition root: reads, and the transaction each change commits in. */
  repo: Transactional<AdminHospitalsRepository>;
  clock: Clock;
  newId?: () => string;
}

/** The status channel crews and consoles subscribe to (the seed's ids have the same form). */
export const statusChannelIdFor = (hospitalId: string) => `hospital-status:${hospitalId}`;

/**
 * Every §3 feature, in order, on when asked; a stored feature outside §3 (none today) is kept as it was,
 * so an edit here never drops what another part of the system set.
 */
export function mergeFeatures(stored: readonly Feature[], asked: readonly Feature[]): Feature[] {
  const on = new Map(asked.map((f) => [f.name, f.enabled]));
  const known = new Set<string>(HOSPITAL_FEATURES);
  return [
    ...HOSPITAL_FEATURES.map((name) => ({ name, enabled: on.get(name) ?? false })),
    ...stored.filter((f) => !known.has(f.name)),
  ];
}

function toAdminHospital(row: HospitalRow, agencyIds: string[]): AdminHospital {
  const stored = parseJson<Feature[]>(row.supported_features, []);
  return {
    id: row.id,
    name: row.name,
    nonTwiage: fromFlag(row.non_twiage),
    statusChannelId: row.status_channel_id,
    edPhoneNumbers: parseJson(row.ed_phone_numbers, []),
    supportedFeatures: mergeFeatures(stored, stored),
    location:
      row.latitude !== null && row.longitude !== null
        ? { latitude: Number(row.latitude), longitude: Number(row.longitude) }
        : null,
    capabilities: capabilitiesOf(row),
    agencyIds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toWrite(body: AdminUpdateHospitalBody, stored: Feature[]): Partial<HospitalWrite> {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.nonTwiage !== undefined ? { non_twiage: toFlag(body.nonTwiage) } : {}),
    ...(body.edPhoneNumbers !== undefined ? { ed_phone_numbers: toJson(body.edPhoneNumbers) } : {}),
    ...(body.supportedFeatures !== undefined
      ? { supported_features: toJson(mergeFeatures(stored, body.supportedFeatures)) }
      : {}),
    ...(body.location !== undefined
      ? { latitude: body.location?.latitude ?? null, longitude: body.location?.longitude ?? null }
      : {}),
    ...(body.capabilities !== undefined
      ? {
          stroke_center: body.capabilities.strokeCenter,
          pci: toFlag(body.capabilities.pci),
          trauma_level: body.capabilities.traumaLevel,
        }
      : {}),
  };
}

const EDITABLE = ['name', 'nonTwiage', 'edPhoneNumbers', 'supportedFeatures', 'location', 'capabilities'] as const;

export function createAdminHospitalsService({ repo: store, clock, newId = randomUUID }: AdminHospitalsServiceDeps) {
  const reader = store.read;

  async function read(repo: typeof reader, id: string): Promise<AdminHospital | null> {
    const row = await repo.findById(id);
    if (!row) return null;
    return toAdminHospital(row, (await repo.agencyIdsByHospital([id])).get(id) ?? []);
  }

  return {
    async list(principal: Principal): Promise<AdminHospital[]> {
      requireOrgAdmin(principal);
      const rows = await reader.list();
      const agencies = await reader.agencyIdsByHospital(rows.map((r) => r.id));
      return rows.map((row) => toAdminHospital(row, agencies.get(row.id) ?? []));
    },

    async get(principal: Principal, id: string): Promise<AdminHospital> {
      requireOrgAdmin(principal);
      const hospital = await read(reader, id);
      if (!hospital) throw notFound('Hospital');
      return hospital;
    },

    async create(principal: Principal, body: AdminCreateHospitalBody): Promise<AdminHospital> {
      requireOrgAdmin(principal);
      const id = newId();
      const at = clock.now().toISOString();
      return store.transaction(async (repo, trx) => {
        const values = toWrite(body, []) as HospitalWrite;
        await repo.insert({ id, status_channel_id: statusChannelIdFor(id), at, ...values });
        const after = (await read(repo, id))!;
        await recordAdminChange(trx, {
          actor: principal,
          action: 'hospital.create',
          entityType: 'hospital',
          entityId: id,
          summary: `Created hospital ${after.name}${after.nonTwiage ? ' (not on the platform)' : ''}`,
          after,
          at: clock.now(),
        });
        return after;
      });
    },

    async update(principal: Principal, id: string, body: AdminUpdateHospitalBody): Promise<AdminHospital> {
      requireOrgAdmin(principal);
      const at = clock.now().toISOString();
      return store.transaction(async (repo, trx) => {
        const row = await repo.findById(id);
        if (!row) throw notFound('Hospital');
        const before = (await read(repo, id))!;
        await repo.update(id, toWrite(body, parseJson<Feature[]>(row.supported_features, [])), at);
        const after = (await read(repo, id))!;
        const changed = changedKeys(before, after, EDITABLE);
        await recordAdminChange(trx, {
          actor: principal,
          action: 'hospital.update',
          entityType: 'hospital',
          entityId: id,
          summary: `Updated hospital ${after.name}: ${changed.length > 0 ? changed.join(', ') : 'no change'}`,
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, after[k]])),
          at: clock.now(),
        });
        return after;
      });
    },
  };
}

export type AdminHospitalsService = ReturnType<typeof createAdminHospitalsService>;
