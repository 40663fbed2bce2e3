/**
 * Setting and clearing a hospital's active statuses (spec §3 "Hospital status list"; badges critical
 * red, urgent amber on the crews' hospital lists). Only the hospital's ED staff and organisation admins
 * may; each change is published on `hospital-status:{id}` as `hospital.status` carrying the whole
 * active list, so a client replaces its copy instead of merging changes.
 */
import { randomUUID } from 'node:crypto';
import {
  channelName,
  type HospitalStatus,
  type HospitalStatusesResponse,
  type SetHospitalStatusBody,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { HospitalsRepository, StatusRow } from './hospitals.repository.js';

export interface HospitalStatusServiceDeps {
  repo: HospitalsRepository;
  clock: Clock;
  publisher: RealtimePublisher;
}

const toStatus = (row: StatusRow): HospitalStatus => ({
  _id: row.id,
  status: row.status,
  priority: row.priority,
  setAt: row.set_at,
});

export function createHospitalStatusService({ repo, clock, publisher }: HospitalStatusServiceDeps) {
  async function requireStaff(principal: Principal, hospitalId: string): Promise<void> {
    const [hospital] = await repo.findByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    if (!isOrgAdmin(principal) && !principal.edHospitalIds.includes(hospitalId)) throw forbidden();
  }

  async function publishActive(hospitalId: string): Promise<HospitalStatusesResponse> {
    const active: HospitalStatusesResponse = {
      hospitalId,
      activeStatuses: (await repo.activeStatuses([hospitalId])).map(toStatus),
    };
    await publisher.publish(channelName('hospital-status', hospitalId), { type: 'hospital.status', data: active });
    return active;
  }

  return {
    async set(principal: Principal, hospitalId: string, body: SetHospitalStatusBody): Promise<HospitalStatus> {
      await requireStaff(principal, hospitalId);
      const row: StatusRow = {
        id: randomUUID(),
        hospital_id: hospitalId,
        status: body.status,
        priority: body.priority,
        set_at: clock.now().toISOString(),
      };
      await repo.insertStatus(row);
      await publishActive(hospitalId);
      return toStatus(row);
    },

    async clear(principal: Principal, hospitalId: string, statusId: string): Promise<HospitalStatusesResponse> {
      await requireStaff(principal, hospitalId);
      if (!(await repo.clearStatus(hospitalId, statusId, clock.now().toISOString()))) throw notFound('Status');
      return publishActive(hospitalId);
    },
  };
}

export type HospitalStatusService = ReturnType<typeof createHospitalStatusService>;
