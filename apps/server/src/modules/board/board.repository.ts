/**
 * The board's read model: a hospital's inbound cases with what a card needs, read in a few set-wise
 * queries (never one query per case — the board is re-read on every change of any of its cases). It
 * reads the case, chat and agency tables without changing them; its one write is the read audit (the
 * acknowledgement is the cases module's write).
 */
import type { Kysely } from 'kysely';
import type { CaseRow, CaseReadAuditTable, DB } from '../../db/schema.js';
import { appendReads, type Unchained } from '../audit/audit-chain.js';
import { isMediaEvent } from '../../db/media-events.js';

const count = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/**
 * The media events of the given cases counted by case and type. Exported for the test that checks the
 * planner reads it through the partial index `case_events_media_idx`.
 */
export function mediaCountsQuery(db: Kysely<DB>, caseIds: readonly string[]) {
  return db
    .selectFrom('case_events')
    .select(['case_id', 'type', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('case_id', 'in', caseIds)
    .where(isMediaEvent)
    .groupBy(['case_id', 'type']);
}

export function createBoardRepository(db: Kysely<DB>) {
  return {
    openCases(hospitalId: string): Promise<CaseRow[]> {
      return db
        .selectFrom('cases')
        .selectAll()
        .where('destination_hospital_id', '=', hospitalId)
        .where('arrived_at', 'is', null)
        .orderBy('began_at')
        .execute();
    },

    recentlyArrived(hospitalId: string, since: string, limit: number): Promise<CaseRow[]> {
      return db
        .selectFrom('cases')
        .selectAll()
        .where('destination_hospital_id', '=', hospitalId)
        .where('arrived_at', 'is not', null)
        .where('closed_at', '>=', since)
        .orderBy('closed_at', 'desc')
        .limit(limit)
        .execute();
    },

    findCase(caseId: string): Promise<CaseRow | undefined> {
      return db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirst();
    },

    agencies(ids: readonly string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('agencies').select(['id', 'name']).where('id', 'in', ids).execute();
    },

    trucks(ids: readonly string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('trucks').select(['id', 'name', 'is_als']).where('id', 'in', ids).execute();
    },

    tags(caseIds: readonly string[]) {
      if (caseIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('case_tags')
        .select(['case_id', 'tag_id'])
        .where('case_id', 'in', caseIds)
        .orderBy('case_id')
        .orderBy('seq')
        .execute();
    },

    tagValues(caseIds: readonly string[]) {
      if (caseIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('case_tag_values')
        .select(['case_id', 'tag_id', 'fields', 'updated_at'])
        .where('case_id', 'in', caseIds)
        .orderBy('case_id')
        .orderBy('seq')
        .execute();
    },

    /** Crew messages not yet read by the hospital side, per case. */
    async unreadChat(caseIds: readonly string[]): Promise<Map<string, number>> {
      if (caseIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('chat_messages')
        .select(['case_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('case_id', 'in', caseIds)
        .where('sender_side', '=', 'crew')
        .where('read_at', 'is', null)
        .groupBy('case_id')
        .execute();
      return new Map(rows.map((r) => [r.case_id, count(r.n)]));
    },

    /** Media items (photo, ID, EKG, video, voice memo) recorded per case. */
    async mediaCounts(caseIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
      const counts = new Map<string, Map<string, number>>();
      if (caseIds.length === 0) return counts;
      const rows = await mediaCountsQuery(db, caseIds).execute();
      for (const row of rows) {
        const perType = counts.get(row.case_id) ?? new Map<string, number>();
        perType.set(row.type, count(row.n));
        counts.set(row.case_id, perType);
      }
      return counts;
    },

    /** The case's event log with each actor's display name, oldest first. */
    events(caseId: string) {
      return db
        .selectFrom('case_events')
        .leftJoin('users', 'users.id', 'case_events.actor_user_id')
        .select([
          'case_events.seq',
          'case_events.type',
          'case_events.created_at',
          'case_events.client_created_at',
          'case_events.payload',
          'users.display_name',
        ])
        .where('case_events.case_id', '=', caseId)
        .orderBy('case_events.seq')
        .execute();
    },

    async displayName(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('display_name').where('id', '=', userId).executeTakeFirst();
      return row?.display_name ?? null;
    },

    async recordReads(rows: Omit<Unchained<CaseReadAuditTable>, 'id'>[]): Promise<void> {
      await appendReads(db, rows);
    },
  };
}

export type BoardRepository = ReturnType<typeof createBoardRepository>;
