/**
 * Charge nurses and their offload alerts: queries only. The sweep's reads go per hospital that has a
 * charge nurse, through the cases' (destination_hospital_id, destination_arrived_at) index.
 */
import type { Kysely } from 'kysely';
import type { OffloadAlert } from '@inbound/contract';
import type { DB } from '../../db/schema.js';

/** A case at the door past the threshold, not handed over, that has no alert for this arrival yet. */
export interface OverdueCase {
  caseId: string;
  caseNumber: string;
  hospitalId: string;
  arrivedAt: string;
  truckName: string;
}

export function createChargeNurseRepository(db: Kysely<DB>) {
  return {
    async chargeNurses(hospitalId: string): Promise<{ userId: string; name: string }[]> {
      const rows = await db
        .selectFrom('hospital_charge_nurses')
        .innerJoin('users', 'users.id', 'hospital_charge_nurses.user_id')
        .select(['users.id', 'users.display_name'])
        .where('hospital_charge_nurses.hospital_id', '=', hospitalId)
        .where('users.disabled', '=', 0)
        .orderBy('users.display_name')
        .execute();
      return rows.map((r) => ({ userId: r.id, name: r.display_name }));
    },

    /** Replaces the hospital's list in one transaction. */
    async setChargeNurses(hospitalId: string, userIds: readonly string[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('hospital_charge_nurses').where('hospital_id', '=', hospitalId).execute();
        if (userIds.length === 0) return;
        await trx
          .insertInto('hospital_charge_nurses')
          .values(userIds.map((userId) => ({ hospital_id: hospitalId, user_id: userId })))
          .execute();
      });
    },

    /** The hospitals with at least one charge nurse, and their offload thresholds (null: the default). */
    async hospitalsWithChargeNurses(): Promise<{ hospitalId: string; offloadAlertMinutes: number | null }[]> {
      const rows = await db
        .selectFrom('hospital_charge_nurses')
        .leftJoin(
          'hospital_arrival_settings',
          'hospital_arrival_settings.hospital_id',
          'hospital_charge_nurses.hospital_id',
        )
        .select(['hospital_charge_nurses.hospital_id', 'hospital_arrival_settings.offload_alert_minutes'])
        .distinct()
        .execute();
      return rows.map((r) => ({
        hospitalId: r.hospital_id,
        offloadAlertMinutes: r.offload_alert_minutes === null ? null : Number(r.offload_alert_minutes),
      }));
    },

    /** The hospital's arrivals between `since` and `until` still waiting for the hand-over, without an alert. */
    async overdue(hospitalId: string, since: string, until: string, limit: number): Promise<OverdueCase[]> {
      const rows = await db
        .selectFrom('cases')
        .innerJoin('trucks', 'trucks.id', 'cases.truck_id')
        .select(['cases.id', 'cases.case_number', 'cases.destination_arrived_at', 'trucks.name'])
        .where('cases.destination_hospital_id', '=', hospitalId)
        .where('cases.destination_arrived_at', '>=', since)
        .where('cases.destination_arrived_at', '<=', until)
        .where('cases.handoff_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('offload_alerts')
                .select('offload_alerts.case_id')
                .whereRef('offload_alerts.case_id', '=', 'cases.id')
                .where('offload_alerts.hospital_id', '=', hospitalId)
                .whereRef('offload_alerts.arrived_at', '=', 'cases.destination_arrived_at'),
            ),
          ),
        )
        .orderBy('cases.destination_arrived_at')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        caseId: r.id,
        caseNumber: r.case_number,
        hospitalId,
        arrivedAt: r.destination_arrived_at!,
        truckName: r.name,
      }));
    },

    /**
     * Records the alert of one arrival; false when another process (or an earlier tick) recorded it
     * first — the primary key decides, so the alert goes once.
     */
    async claimAlert(row: {
      case_id: string;
      hospital_id: string;
      arrived_at: string;
      threshold_minutes: number;
      alerted_at: string;
    }): Promise<boolean> {
      const result = await db
        .insertInto('offload_alerts')
        .values(row)
        .onConflict((oc) => oc.columns(['case_id', 'hospital_id', 'arrived_at']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    /**
     * The alerts of the hospitals where the user is charge nurse whose truck still waits: the case is
     * still coming to that hospital, on the same arrival, not handed over.
     */
    async openAlertsFor(userId: string, limit: number): Promise<OffloadAlert[]> {
      const rows = await db
        .selectFrom('hospital_charge_nurses as cn')
        .innerJoin('offload_alerts as oa', 'oa.hospital_id', 'cn.hospital_id')
        .innerJoin('cases', 'cases.id', 'oa.case_id')
        .innerJoin('trucks', 'trucks.id', 'cases.truck_id')
        .innerJoin('hospitals', 'hospitals.id', 'oa.hospital_id')
        .select([
          'oa.case_id',
          'oa.hospital_id',
          'oa.arrived_at',
          'oa.threshold_minutes',
          'oa.alerted_at',
          'cases.case_number',
          'trucks.name as truck_name',
          'hospitals.name as hospital_name',
        ])
        .where('cn.user_id', '=', userId)
        .whereRef('cases.destination_hospital_id', '=', 'oa.hospital_id')
        .whereRef('cases.destination_arrived_at', '=', 'oa.arrived_at')
        .where('cases.handoff_at', 'is', null)
        .orderBy('oa.arrived_at')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        caseId: r.case_id,
        caseNumber: r.case_number,
        hospitalId: r.hospital_id,
        hospitalName: r.hospital_name,
        truckName: r.truck_name,
        arrivedAt: r.arrived_at,
        thresholdMinutes: Number(r.threshold_minutes),
        alertedAt: r.alerted_at,
      }));
    },
  };
}

export type ChargeNurseRepository = ReturnType<typeof createChargeNurseRepository>;
