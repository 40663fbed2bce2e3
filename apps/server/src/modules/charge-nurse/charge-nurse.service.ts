/**
 * Charge nurses (issue 15 item 3, decision 0038).
 *
 * Designation: an organisation admin (who administers the hospitals, as with teams) sets the hospital's
 * charge nurses among its ED staff; ED staff of the hospital and org admins read the list.
 *
 * The offload alert: `tick()` (every few seconds from app.ts; tests move the clock and call it) looks,
 * for each hospital with a charge nurse, for trucks that arrived more than the hospital's threshold ago
 * and are still not handed over. Each such arrival is claimed once in `offload_alerts` (its primary key
 * is case, hospital and arrival: two processes racing insert one row, and a later tick finds it), and
 * only the claimer alerts: the charge nurses' `user:{id}` channels (`offload.alert`, every console they
 * have open) and Web Push whether or not a socket is open (the charge nurse may be on the floor with
 * the phone in a pocket). A new arrival of the same case (after a destination change) is a new crossing.
 */
import {
  chargeNurseMessages,
  DEFAULT_OFFLOAD_ALERT_MINUTES,
  USER_CHANNEL_EVENTS,
  type ChargeNursesBody,
  type ChargeNursesResponse,
  type Hospital,
  type OffloadAlert,
  type OffloadAlertsResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { PushService } from '../push/push.service.js';
import { publishMessage } from '../realtime/channel-messages.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { ChargeNurseRepository } from './charge-nurse.repository.js';

/** Arrivals older than this are not alerted any more (bounds the sweep's read; nobody waits a day). */
const ALERT_WINDOW_MS = 24 * 3_600_000;
/** How many overdue arrivals per hospital one tick handles (the rest wait for the next tick). */
const TICK_BATCH = 50;
const MY_ALERTS_LIMIT = 100;

export interface ChargeNurseServiceDeps {
  repo: ChargeNurseRepository;
  clock: Clock;
  access: Pick<CaseAccess, 'requireHospitalStaff'>;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
  /** The hospital's ED staff (who may be designated): the team module's list, one rule for both. */
  staff(hospitalId: string): Promise<{ userId: string; name: string }[]>;
  publisher: RealtimePublisher;
  push: Pick<PushService, 'notify'>;
  /** A failed alert delivery (never with who or which case). */
  onError?: (error: unknown) => void;
}

export function createChargeNurseService(deps: ChargeNurseServiceDeps) {
  const { repo, clock, access } = deps;

  async function requireHospital(hospitalId: string): Promise<Hospital> {
    const [hospital] = await deps.hospitals.hospitalsByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    return hospital;
  }

  async function listOf(hospitalId: string): Promise<ChargeNursesResponse> {
    const [chargeNurses, staff] = await Promise.all([repo.chargeNurses(hospitalId), deps.staff(hospitalId)]);
    return { chargeNurses, staff };
  }

  /** Tells the charge nurses: every console they have open, and their phones. */
  function alert(userIds: readonly string[], alertOf: OffloadAlert): void {
    const message = { type: USER_CHANNEL_EVENTS.offloadAlert, data: alertOf } as const;
    for (const userId of userIds) {
      publishMessage(deps.publisher, 'user', userId, message).catch((error: unknown) => deps.onError?.(error));
    }
    deps.push.notify(
      userIds,
      (userId) => [`user-${userId}`],
      {
        type: 'offload.alert',
        title: `Charge nurse: offload over ${alertOf.thresholdMinutes} min`,
        // A phone's lock screen: the hospital only — no case number, no truck, no patient (decision 0035).
        body: `An ambulance waits for handoff at ${alertOf.hospitalName}. Tap to open the board.`,
        url: '/hospital/',
        caseId: null,
        transferId: null,
      },
      { always: true },
    );
  }

  async function sweepHospital(hospitalId: string, thresholdMinutes: number, now: Date): Promise<number> {
    const nurses = await repo.chargeNurses(hospitalId);
    if (nurses.length === 0) return 0;
    const until = new Date(now.getTime() - thresholdMinutes * 60_000).toISOString();
    const since = new Date(now.getTime() - ALERT_WINDOW_MS).toISOString();
    const overdue = await repo.overdue(hospitalId, since, until, TICK_BATCH);
    if (overdue.length === 0) return 0;
    const hospital = await requireHospital(hospitalId);
    let alerted = 0;
    for (const c of overdue) {
      const alertedAt = now.toISOString();
      const claimed = await repo.claimAlert({
        case_id: c.caseId,
        hospital_id: hospitalId,
        arrived_at: c.arrivedAt,
        threshold_minutes: thresholdMinutes,
        alerted_at: alertedAt,
      });
      if (!claimed) continue;
      alerted += 1;
      alert(
        nurses.map((n) => n.userId),
        { ...c, hospitalName: hospital.name, thresholdMinutes, alertedAt },
      );
    }
    return alerted;
  }

  return {
    /** GET /v4/hospitals/{id}/charge-nurses: ED staff of the hospital, or an org admin. */
    async list(principal: Principal, hospitalId: string): Promise<ChargeNursesResponse> {
      if (isOrgAdmin(principal)) await requireHospital(hospitalId);
      else await access.requireHospitalStaff(principal, hospitalId);
      return listOf(hospitalId);
    },

    /** PUT /v4/hospitals/{id}/charge-nurses: an org admin; everyone listed must be on the ED staff. */
    async set(principal: Principal, hospitalId: string, body: ChargeNursesBody): Promise<ChargeNursesResponse> {
      if (!isOrgAdmin(principal)) throw forbidden();
      await requireHospital(hospitalId);
      const staff = await deps.staff(hospitalId);
      const onStaff = new Set(staff.map((s) => s.userId));
      const outsider = body.userIds.find((id) => !onStaff.has(id));
      if (outsider !== undefined) throw badRequest(chargeNurseMessages.notStaff(outsider));
      await repo.setChargeNurses(hospitalId, body.userIds);
      return listOf(hospitalId);
    },

    /** GET /v4/offload-alerts/mine: the trucks still waiting at the user's charge-nurse hospitals. */
    async mine(principal: Principal): Promise<OffloadAlertsResponse> {
      return { data: await repo.openAlertsFor(principal.userId, MY_ALERTS_LIMIT) };
    },

    /** Alerts every arrival that crossed its hospital's threshold since the last tick. Safe from every process. */
    async tick(): Promise<number> {
      const now = clock.now();
      let alerted = 0;
      for (const h of await repo.hospitalsWithChargeNurses()) {
        try {
          alerted += await sweepHospital(h.hospitalId, h.offloadAlertMinutes ?? DEFAULT_OFFLOAD_ALERT_MINUTES, now);
        } catch (error) {
          deps.onError?.(error);
        }
      }
      return alerted;
    },
  };
}

export type ChargeNurseService = ReturnType<typeof createChargeNurseService>;
