/**
 * Who may do what with a case: the one policy the case routes, the real-time channels, media, chat,
 * the board and the inbound case pages ask (issue 10).
 *
 * - crew: users on the case's access list — its `owner` (the crew that started it, or the crew it was
 *   transferred to) reads and writes it; a receiving crew (between accept and done) only reads it;
 * - destination ED: ED staff of the case's current destination hospital read it, never when that
 *   hospital is not on the platform (nonTwiage: no case data goes there, spec §6);
 * - organisation admin: acts for a hospital (its channel, statuses, broadcasts) but reads no case
 *   (HIPAA minimum necessary) — unless they are on that hospital's staff list too.
 *
 * An unknown case is 404, anyone else 403 (console-authorization.matrix.test.ts checks every call).
 */
import type { Hospital } from '@inbound/contract';
import type { CaseRow } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';

/** The access-list role that may change the case. */
export const OWNER_ROLE = 'owner';
const NOT_OWNER_MESSAGE =
  'Only the crew that owns this case can change it. A case being transferred to you can be changed once the transfer is done.';

export type CaseSide = 'crew' | 'hospital';

/** The case and the user's access-list role on it (null: not on the list), as one read answers both. */
export interface CaseWithRole {
  row: CaseRow;
  role: string | null;
}

export interface CaseAccessDeps {
  findWithAccess(caseId: string, userId: string): Promise<CaseWithRole | null>;
  findCase(caseId: string): Promise<CaseRow | null>;
  hospitalsByIds(ids: readonly string[]): Promise<Hospital[]>;
}

/** The destination ED's "seen", counted only for the hospital the case is going to now. */
export function seenByDestination(
  row: Pick<
    CaseRow,
    'acknowledged_hospital_id' | 'destination_hospital_id' | 'acknowledged_at' | 'acknowledged_by_name'
  >,
): { hospitalId: string; byName: string; at: string } | null {
  if (row.acknowledged_hospital_id === null || row.acknowledged_hospital_id !== row.destination_hospital_id)
    return null;
  if (row.acknowledged_at === null || row.acknowledged_by_name === null) return null;
  return { hospitalId: row.acknowledged_hospital_id, byName: row.acknowledged_by_name, at: row.acknowledged_at };
}

/** Whether the user acts for the hospital: its ED staff, or an organisation admin. */
export const actsForHospital = (principal: Principal, hospitalId: string): boolean =>
  principal.edHospitalIds.includes(hospitalId) || isOrgAdmin(principal);

/** A crew's case as read with its role: the row, or 404 / 403. */
export function crewCase(found: CaseWithRole | null): CaseRow {
  if (!found) throw notFound('Case');
  if (found.role === null) throw forbidden();
  return found.row;
}

/** The owner's case as read with its role: the row, or 404 / 403 (a receiver is told why). */
export function ownedCase(found: CaseWithRole | null): CaseRow {
  const row = crewCase(found);
  if (found?.role !== OWNER_ROLE) throw forbidden(NOT_OWNER_MESSAGE);
  return row;
}

export function createCaseAccess(deps: CaseAccessDeps) {
  async function onPlatform(hospitalId: string): Promise<Hospital | null> {
    const [hospital] = await deps.hospitalsByIds([hospitalId]);
    return hospital && !hospital.nonTwiage ? hospital : null;
  }

  /** Whether the user is ED staff of the case's destination, and that hospital is on the platform. */
  async function isDestinationStaff(principal: Principal, row: CaseRow): Promise<boolean> {
    const hospitalId = row.destination_hospital_id;
    if (hospitalId === null || !principal.edHospitalIds.includes(hospitalId)) return false;
    return (await onPlatform(hospitalId)) !== null;
  }

  /** The case and the side the user reads it from; null: no such case; side null: may not read it. */
  async function reader(
    principal: Principal,
    caseId: string,
  ): Promise<{ row: CaseRow; side: CaseSide | null; crewRole: string | null } | null> {
    const found = await deps.findWithAccess(caseId, principal.userId);
    if (!found) return null;
    if (found.role !== null) return { row: found.row, side: 'crew', crewRole: found.role };
    const side = (await isDestinationStaff(principal, found.row)) ? 'hospital' : null;
    return { row: found.row, side, crewRole: null };
  }

  /** ED staff of an on-platform hospital: the hospital, or 404 (unknown) / 403. */
  async function requireHospitalStaff(principal: Principal, hospitalId: string): Promise<Hospital> {
    if (!principal.edHospitalIds.includes(hospitalId)) throw forbidden();
    const [hospital] = await deps.hospitalsByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    if (hospital.nonTwiage) throw forbidden();
    return hospital;
  }

  return {
    /** The crew's own case (GET /v4/twiageCases/{id}): on its access list. */
    async requireCrew(principal: Principal, caseId: string): Promise<CaseRow> {
      return crewCase(await deps.findWithAccess(caseId, principal.userId));
    },

    /** A writer of the case: its owner. */
    async requireOwner(principal: Principal, caseId: string): Promise<CaseRow> {
      return ownedCase(await deps.findWithAccess(caseId, principal.userId));
    },

    /** A reader of the case (media, chat): its crews and the destination's ED staff; 404 / 403. */
    async requireReader(
      principal: Principal,
      caseId: string,
    ): Promise<{ row: CaseRow; side: CaseSide; crewRole: string | null }> {
      const found = await reader(principal, caseId);
      if (!found) throw notFound('Case');
      if (found.side === null) throw forbidden();
      return { row: found.row, side: found.side, crewRole: found.crewRole };
    },

    /** For the `case:{id}` channel: the same readers, yes or no. */
    async mayRead(principal: Principal, caseId: string): Promise<boolean> {
      return (await reader(principal, caseId))?.side != null;
    },

    requireHospitalStaff,

    /** A case of the hospital's board (board, inbound case pages): staff of its current destination. */
    async requireInbound(principal: Principal, hospitalId: string, caseId: string) {
      const hospital = await requireHospitalStaff(principal, hospitalId);
      const row = await deps.findCase(caseId);
      if (row?.destination_hospital_id !== hospitalId) throw notFound('Case');
      return { hospital, row };
    },

    /** Whether the hospital is on the platform (false also for an unknown one). */
    async hospitalOnPlatform(hospitalId: string): Promise<boolean> {
      return (await onPlatform(hospitalId)) !== null;
    },
  };
}

export type CaseAccess = ReturnType<typeof createCaseAccess>;
