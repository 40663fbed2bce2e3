/**
 * The arrival module's own reads and writes (issue 15): each hospital's arrival settings, the cases that
 * left a hospital for another destination, and the rows of the offload report. Case state is written
 * only by the cases service; this reads it.
 */
import type { Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';

/** How many case ids go into one `in (…)` list. */
const CHUNK = 500;

export function createArrivalRepository(db: Kysely<DB>) {
  // Read with every position report of a case that has a destination (issue 11): one compiled point read
  // of what a geofence needs, where the hospital, its statuses and its settings were three queries.
  const fenceOf = prepareQuery(
    db,
    (hospitalId: string) =>
      db
        .selectFrom('hospitals')
        .leftJoin('hospital_arrival_settings', 'hospital_arrival_settings.hospital_id', 'hospitals.id')
        .select([
          'hospitals.latitude',
          'hospitals.longitude',
          'hospitals.non_twiage',
          'hospital_arrival_settings.arrival_radius_m',
        ])
        .where('hospitals.id', '=', hospitalId),
    1,
  );
  return {
    /** The hospital's position, whether it is on the platform, and its arrival radius (null: the default). */
    async fence(hospitalId: string) {
      const [row] = await fenceOf(hospitalId);
      return row ?? null;
    },

    async settings(hospitalId: string) {
      return db
        .selectFrom('hospital_arrival_settings')
        .select(['arrival_radius_m', 'offload_alert_minutes'])
        .where('hospital_id', '=', hospitalId)
        .executeTakeFirst();
    },

    async saveSettings(row: DB['hospital_arrival_settings']): Promise<void> {
      await db
        .insertInto('hospital_arrival_settings')
        .values(row)
        .onConflict((oc) =>
          oc.column('hospital_id').doUpdateSet({
            arrival_radius_m: row.arrival_radius_m,
            offload_alert_minutes: row.offload_alert_minutes,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    /** Destination changes away from the hospital since `since`, newest first, with the case number. */
    divertedAway(hospitalId: string, since: string, limit: number) {
      return db
        .selectFrom('case_destination_changes as c')
        .innerJoin('cases', 'cases.id', 'c.case_id')
        .select([
          'c.case_id',
          'cases.case_number',
          'c.to_hospital_name',
          'c.reason',
          'c.at',
          'cases.destination_hospital_id',
        ])
        .where('c.from_hospital_id', '=', hospitalId)
        .where('c.at', '>=', since)
        .orderBy('c.at', 'desc')
        .limit(limit)
        .execute();
    },

    /** The hospital's arrivals in [fromIso, toIso), oldest first, at most `limit`. */
    arrivals(hospitalId: string, fromIso: string, toIso: string, limit: number) {
      return db
        .selectFrom('cases')
        .select([
          'id',
          'case_number',
          'destination_arrived_at',
          'destination_arrival_source',
          'handoff_at',
          'handoff_by_name',
          'acknowledged_hospital_id',
          'acknowledged_at',
          'created_at',
        ])
        .where('destination_hospital_id', '=', hospitalId)
        .where('destination_arrived_at', '>=', fromIso)
        .where('destination_arrived_at', '<', toIso)
        .orderBy('destination_arrived_at')
        .limit(limit)
        .execute();
    },

    /** The 'hospital' events (destination choices) of the cases, oldest first: when each was notified. */
    async destinationEvents(caseIds: readonly string[]) {
      const rows: { case_id: string; payload: string; created_at: string }[] = [];
      for (let i = 0; i < caseIds.length; i += CHUNK) {
        const chunk = caseIds.slice(i, i + CHUNK);
        rows.push(
          ...(await db
            .selectFrom('case_events')
            .select(['case_id', 'payload', 'created_at'])
            .where('case_id', 'in', chunk)
            .where('type', '=', 'hospital')
            .orderBy('seq')
            .execute()),
        );
      }
      return rows;
    },

    async displayName(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('display_name').where('id', '=', userId).executeTakeFirst();
      return row?.display_name ?? null;
    },
  };
}

export type ArrivalRepository = ReturnType<typeof createArrivalRepository>;
