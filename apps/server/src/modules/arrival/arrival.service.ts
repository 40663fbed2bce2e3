/**
 * Arrival, hand-over and diversion for the destination ED (issue 15 items 2–4), each hospital's
 * arrival settings, the cases that left its board, and its offload report.
 *
 * Who: the case's current destination ED staff (case-access `requireInbound`) for the case calls;
 * ED staff of the hospital for the report and the diverted list; ED staff or organisation admins read
 * the settings, organisation admins set them. Every case change goes through the cases service
 * (`hospitalWrite`): one transaction under the case's row lock, typed events, the case outbox.
 */
import {
  BOARD_HISTORY_HOURS,
  DEFAULT_ARRIVAL_RADIUS_M,
  DEFAULT_OFFLOAD_ALERT_MINUTES,
  REPORT_MAX_CASES,
  type ArrivalSettings,
  type ArrivalStateResponse,
  type DivertedAwayResponse,
  type Hospital,
  type OffloadReport,
  type OffloadReportQuery,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, parseJson } from '../../db/json.js';
import type { CaseRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import { actsForHospital } from '../cases/case-access.js';
import type { CasesService } from '../cases/cases.service.js';
import type { ArrivalRepository } from './arrival.repository.js';
import { arrivalChanges, arrivalFields } from './arrival-state.js';
import type { Fence } from './geofence.js';
import { buildOffloadReport } from './offload-report.js';

const DIVERTED_AWAY_LIMIT = 50;
/** The report reads a UTC window this much wider than its days, then keeps the local days it covers. */
const ZONE_SLACK_MS = 14 * 3_600_000;

export interface ArrivalServiceDeps {
  repo: ArrivalRepository;
  clock: Clock;
  access: Pick<CaseAccess, 'requireHospitalStaff' | 'requireInbound'>;
  cases: Pick<CasesService, 'hospitalWrite'>;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
}

const CLOSED_ARRIVED = 'The truck has arrived at this hospital: the case can no longer be diverted.';
const NOT_DESTINATION = 'The case is no longer coming to this hospital.';

async function arrivalSettingsOf(
  repo: Pick<ArrivalRepository, 'settings'>,
  hospitalId: string,
): Promise<ArrivalSettings> {
  const row = await repo.settings(hospitalId);
  return {
    arrivalRadiusM: row ? Number(row.arrival_radius_m) : DEFAULT_ARRIVAL_RADIUS_M,
    offloadAlertMinutes: row ? Number(row.offload_alert_minutes) : DEFAULT_OFFLOAD_ALERT_MINUTES,
  };
}

/**
 * The destinations' geofences, for the cases service's position reports: reads only (the repository),
 * so the cases service does not depend on this service, which writes through it.
 */
export function createFences(repo: Pick<ArrivalRepository, 'fence'>) {
  return {
    async fenceOf(hospitalId: string): Promise<Fence | null> {
      const row = await repo.fence(hospitalId);
      if (!row || row.latitude === null || row.longitude === null || fromFlag(row.non_twiage)) return null;
      return {
        center: { latitude: Number(row.latitude), longitude: Number(row.longitude) },
        radiusM: row.arrival_radius_m === null ? DEFAULT_ARRIVAL_RADIUS_M : Number(row.arrival_radius_m),
      };
    },
  };
}

export function createArrivalService(deps: ArrivalServiceDeps) {
  const { repo, clock, access, cases, hospitals } = deps;

  const settingsOf = (hospitalId: string) => arrivalSettingsOf(repo, hospitalId);

  const stateOf = (row: CaseRow): ArrivalStateResponse => ({ caseId: row.id, ...arrivalFields(row) });

  /** The ED user's name as the crew and the board show it. */
  const nameOf = async (principal: Principal) => (await repo.displayName(principal.userId)) ?? principal.username;

  /** Runs an ED write on the case, which must still be coming to this hospital; answers the state after. */
  async function edWrite(
    principal: Principal,
    hospitalId: string,
    caseId: string,
    decide: (row: CaseRow, byName: string) => Partial<CaseRow> | null,
    record: (
      row: CaseRow,
      changes: Partial<CaseRow>,
      emit: Parameters<Parameters<CasesService['hospitalWrite']>[2]>[0]['emit'],
    ) => Promise<void>,
  ): Promise<ArrivalStateResponse> {
    await access.requireInbound(principal, hospitalId, caseId);
    const byName = await nameOf(principal);
    const answer = await cases.hospitalWrite(caseId, principal.userId, async ({ current, update, emit }) => {
      if (current.destination_hospital_id !== hospitalId) throw conflict(NOT_DESTINATION);
      const changes = decide(current, byName);
      if (changes === null) return stateOf(current); // already so: the first one stands
      await update(changes);
      await record(current, changes, emit);
      return stateOf({ ...current, ...changes });
    });
    if (!answer) throw notFound('Case');
    return answer;
  }

  return {
    /** The destination's geofence, for the cases service's position reports. */
    fenceOf: createFences(repo).fenceOf,

    /** POST …/inbound/{caseId}/arrived */
    markArrived(principal: Principal, hospitalId: string, caseId: string): Promise<ArrivalStateResponse> {
      const at = () => clock.now().toISOString();
      return edWrite(
        principal,
        hospitalId,
        caseId,
        (row, byName) =>
          row.destination_arrived_at !== null ? null : arrivalChanges({ at: at(), source: 'hospital', byName }),
        async (row, changes, emit) => {
          await emit('arrivedAtDestination', {
            hospitalId,
            at: changes.destination_arrived_at!,
            source: 'hospital',
            byName: changes.destination_arrived_by_name ?? null,
          });
        },
      );
    },

    /** POST …/inbound/{caseId}/handoff: marks the arrival first when nobody had. */
    acceptHandoff(principal: Principal, hospitalId: string, caseId: string): Promise<ArrivalStateResponse> {
      return edWrite(
        principal,
        hospitalId,
        caseId,
        (row, byName) => {
          if (row.handoff_at !== null) return null;
          const at = clock.now().toISOString();
          return {
            ...(row.destination_arrived_at === null ? arrivalChanges({ at, source: 'hospital', byName }) : {}),
            handoff_at: at,
            handoff_by: principal.userId,
            handoff_by_name: byName,
          };
        },
        async (row, changes, emit) => {
          if (row.destination_arrived_at === null) {
            await emit('arrivedAtDestination', {
              hospitalId,
              at: changes.destination_arrived_at!,
              source: 'hospital',
              byName: changes.handoff_by_name ?? null,
            });
          }
          await emit('handoffAccepted', { hospitalId, byName: changes.handoff_by_name!, at: changes.handoff_at! });
        },
      );
    },

    /** POST …/inbound/{caseId}/divert: only before arrival, and while the crew has the case open. */
    async divert(
      principal: Principal,
      hospitalId: string,
      caseId: string,
      reason: string,
    ): Promise<ArrivalStateResponse> {
      const { hospital } = await access.requireInbound(principal, hospitalId, caseId);
      return edWrite(
        principal,
        hospitalId,
        caseId,
        (row, byName) => {
          if (row.arrived_at !== null || row.destination_arrived_at !== null) throw conflict(CLOSED_ARRIVED);
          if (row.diverted_hospital_id === hospitalId && row.diverted_at !== null) return null;
          return {
            diverted_at: clock.now().toISOString(),
            diverted_by_name: byName,
            diversion_reason: reason,
            diverted_hospital_id: hospitalId,
          };
        },
        async (_row, changes, emit) => {
          await emit('diverted', {
            hospitalId,
            hospitalName: hospital.name,
            reason,
            byName: changes.diverted_by_name!,
          });
        },
      );
    },

    /** GET …/diverted-away: where the cases that left this board went (no patient data). */
    async divertedAway(principal: Principal, hospitalId: string): Promise<DivertedAwayResponse> {
      await access.requireHospitalStaff(principal, hospitalId);
      const since = new Date(clock.now().getTime() - BOARD_HISTORY_HOURS * 3_600_000).toISOString();
      const rows = await repo.divertedAway(hospitalId, since, DIVERTED_AWAY_LIMIT);
      return {
        // A case that came back to this hospital is on the board again, not "diverted".
        divertedAway: rows
          .filter((r) => r.destination_hospital_id !== hospitalId)
          .map((r) => ({
            caseId: r.case_id,
            caseNumber: r.case_number,
            toHospitalName: r.to_hospital_name,
            reason: r.reason,
            at: r.at,
          })),
      };
    },

    async settings(principal: Principal, hospitalId: string): Promise<ArrivalSettings> {
      if (!actsForHospital(principal, hospitalId)) throw forbidden();
      const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
      if (!hospital) throw notFound('Hospital');
      return settingsOf(hospitalId);
    },

    async updateSettings(principal: Principal, hospitalId: string, body: ArrivalSettings): Promise<ArrivalSettings> {
      if (!isOrgAdmin(principal)) throw forbidden();
      const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
      if (!hospital) throw notFound('Hospital');
      await repo.saveSettings({
        hospital_id: hospitalId,
        arrival_radius_m: body.arrivalRadiusM,
        offload_alert_minutes: body.offloadAlertMinutes,
        updated_at: clock.now().toISOString(),
      });
      return body;
    },

    /** GET …/reports/offload */
    async report(principal: Principal, hospitalId: string, query: OffloadReportQuery): Promise<OffloadReport> {
      const hospital = await access.requireHospitalStaff(principal, hospitalId);
      const fromIso = new Date(Date.parse(`${query.from}T00:00:00Z`) - ZONE_SLACK_MS).toISOString();
      const toIso = new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000 + ZONE_SLACK_MS).toISOString();
      const [rows, settings] = await Promise.all([
        repo.arrivals(hospitalId, fromIso, toIso, REPORT_MAX_CASES),
        settingsOf(hospitalId),
      ]);
      const notified = new Map<string, string>();
      for (const e of await repo.destinationEvents(rows.map((r) => r.id))) {
        const payload = parseJson<{ destinationHospital?: string }>(e.payload, {});
        if (payload.destinationHospital === hospitalId && !notified.has(e.case_id))
          notified.set(e.case_id, e.created_at);
      }
      return buildOffloadReport({
        hospital: { id: hospital._id, name: hospital.name },
        from: query.from,
        to: query.to,
        tz: query.tz,
        offloadAlertMinutes: settings.offloadAlertMinutes,
        cases: rows.map((r) => ({
          caseId: r.id,
          caseNumber: r.case_number,
          notifiedAt: notified.get(r.id) ?? null,
          acknowledgedAt: r.acknowledged_hospital_id === hospitalId ? r.acknowledged_at : null,
          arrivedAt: r.destination_arrived_at!,
          arrivalSource: r.destination_arrival_source ?? 'hospital',
          handoffAt: r.handoff_at,
          handoffByName: r.handoff_by_name,
        })),
      });
    },
  };
}

export type ArrivalService = ReturnType<typeof createArrivalService>;
