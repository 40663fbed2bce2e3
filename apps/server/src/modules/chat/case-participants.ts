/**
 * Who takes part in a case's conversation (and may follow it by push): its crews — the users on the
 * case's access list — and the ED staff of its destination hospital, never of a hospital that is not
 * on the platform (nonTwiage: no case data goes there, §6). Organisation admins are neither.
 */
import type { Hospital } from '@inbound/contract';
import type { CaseRow } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';

export type CaseSide = 'crew' | 'hospital';

export interface CaseParticipantsDeps {
  cases: { findWithAccess(id: string, userId: string): Promise<{ row: CaseRow; role: string | null } | null> };
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
}

export function createCaseParticipants({ cases, hospitals }: CaseParticipantsDeps) {
  /**
   * The case, the side the user is on and, for a crew, its access-list role ('owner', or the receiver's
   * role while a transfer is under way); 404 for an unknown case, 403 for anyone else.
   */
  async function requireParticipant(
    principal: Principal,
    caseId: string,
  ): Promise<{ row: CaseRow; side: CaseSide; crewRole: string | null; hospitalName?: string }> {
    const found = await cases.findWithAccess(caseId, principal.userId);
    if (!found) throw notFound('Case');
    if (found.role !== null) return { row: found.row, side: 'crew', crewRole: found.role };
    const hospitalId = found.row.destination_hospital_id;
    if (hospitalId !== null && principal.edHospitalIds.includes(hospitalId)) {
      const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
      if (hospital && !hospital.nonTwiage) {
        return { row: found.row, side: 'hospital', crewRole: null, hospitalName: hospital.name };
      }
    }
    throw forbidden();
  }
  return { requireParticipant };
}

export type CaseParticipants = ReturnType<typeof createCaseParticipants>;
