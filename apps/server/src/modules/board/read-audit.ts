/**
 * The audit of reads of case data by hospital staff (HIPAA audit controls): every opening of a case
 * is one row. The board shows part of each case on every refresh — and it refreshes on every change of
 * any of its cases — so a board listing is recorded once per user and case per `BOARD_AUDIT_INTERVAL_MS`
 * (per server process), which keeps "who saw this case on a board, and since when" without a row per
 * position report.
 */
import type { CaseReadAuditTable } from '../../db/schema.js';
import type { Unchained } from '../audit/audit-chain.js';

export const BOARD_AUDIT_INTERVAL_MS = 5 * 60_000;
/** Bound on the remembered (user, case) pairs; the oldest are forgotten first. */
const REMEMBERED_MAX = 50_000;

type AuditRow = Omit<Unchained<CaseReadAuditTable>, 'id'>;

export function createReadAudit(record: (rows: AuditRow[]) => Promise<void>) {
  const lastBoardRead = new Map<string, number>();
  return {
    /** A media file of the case opened (or a link to it made) by the destination's ED staff. */
    media({ userId, hospitalId, caseId, at }: { userId: string; hospitalId: string; caseId: string; at: Date }) {
      return record([
        { user_id: userId, hospital_id: hospitalId, case_id: caseId, access: 'media', read_at: at.toISOString() },
      ]);
    },
    detail(userId: string, hospitalId: string, caseId: string, at: Date): Promise<void> {
      return record([
        { user_id: userId, hospital_id: hospitalId, case_id: caseId, access: 'detail', read_at: at.toISOString() },
      ]);
    },
    board(userId: string, hospitalId: string, caseIds: readonly string[], at: Date): Promise<void> {
      const now = at.getTime();
      const due = caseIds.filter((caseId) => {
        const last = lastBoardRead.get(`${userId} ${caseId}`);
        return last === undefined || now - last >= BOARD_AUDIT_INTERVAL_MS;
      });
      for (const caseId of due) {
        const key = `${userId} ${caseId}`;
        lastBoardRead.delete(key); // re-inserted last: Map order is then oldest-first
        lastBoardRead.set(key, now);
      }
      while (lastBoardRead.size > REMEMBERED_MAX) {
        const oldest = lastBoardRead.keys().next().value;
        if (oldest === undefined) break;
        lastBoardRead.delete(oldest);
      }
      return record(
        due.map((caseId) => ({
          user_id: userId,
          hospital_id: hospitalId,
          case_id: caseId,
          access: 'board',
          read_at: at.toISOString(),
        })),
      );
    },
  };
}

export type ReadAudit = ReturnType<typeof createReadAudit>;
