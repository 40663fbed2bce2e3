/** Queries of the console's per-case reads: the crews' case feedback, and the read-audit rows. */
import type { Kysely } from 'kysely';
import type { CaseReadAuditTable, DB } from '../../db/schema.js';
import { appendReads, type Unchained } from '../audit/audit-chain.js';

export function createInboundCaseRepository(db: Kysely<DB>) {
  return {
    findCase(caseId: string) {
      return db
        .selectFrom('cases')
        .select(['id', 'destination_hospital_id', 'agency_id'])
        .where('id', '=', caseId)
        .executeTakeFirst();
    },

    /**
     * The case's feedback, oldest first, with the sender's display name and the case's agency. A
     * feedback row shares its id with its case event, whose number orders them (times may tie).
     */
    feedback(caseId: string) {
      return db
        .selectFrom('case_feedback')
        .innerJoin('cases', 'cases.id', 'case_feedback.case_id')
        .leftJoin('users', 'users.id', 'case_feedback.user_id')
        .leftJoin('agencies', 'agencies.id', 'cases.agency_id')
        .leftJoin('case_events', 'case_events.id', 'case_feedback.id')
        .select([
          'case_feedback.id',
          'case_feedback.rating',
          'case_feedback.notes',
          'case_feedback.created_at',
          'users.display_name',
          'users.username',
          'agencies.name as agency_name',
          'cases.agency_id',
        ])
        .where('case_feedback.case_id', '=', caseId)
        .orderBy('case_feedback.created_at')
        .orderBy('case_events.seq')
        .execute();
    },

    async recordRead(row: Omit<Unchained<CaseReadAuditTable>, 'id'>): Promise<void> {
      await appendReads(db, [row]);
    },
  };
}

export type InboundCaseRepository = ReturnType<typeof createInboundCaseRepository>;
