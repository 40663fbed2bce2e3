/**
 * `GET /v4/admin/audit-trail` (issue 17): the security log or the case-read log, newest first, paged by
 * the same opaque cursor as the administration log (time + id). Organisation admins only: this is the
 * organisation's whole trail (one organisation per deployment), and anyone else gets 403.
 */
import type { Kysely } from 'kysely';
import {
  AUDIT_TRAIL_PAGE_DEFAULT,
  type AuditVerification,
  type AuditTrailEntry,
  type AuditTrailPage,
  type AuditTrailQuery,
} from '@inbound/contract';
import { parseJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import { badRequest, forbidden } from '../../errors.js';
import { decodeAuditCursor, encodeAuditCursor } from '../admin/audit.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import { verifyAuditChains } from './audit-chain.js';

const chainRef = (row: { chain: string | null; seq: number | null }) => `${row.chain ?? ''}#${Number(row.seq ?? 0)}`;

export function createAuditTrailService(db: Kysely<DB>, now: () => Date = () => new Date()) {
  /** One walk of the chains at a time per process: a second request while one runs gets its result. */
  let verifying: Promise<AuditVerification> | null = null;
  const cursorOf = (query: AuditTrailQuery) => {
    if (query.cursor === undefined) return null;
    const cursor = decodeAuditCursor(query.cursor);
    if (!cursor) throw badRequest('query.cursor: not a cursor of this log; start again without it.');
    return cursor;
  };
  const page = <T extends { id: string }>(rows: T[], limit: number, atOf: (row: T) => string) => {
    const kept = rows.slice(0, limit);
    const last = kept.at(-1);
    return {
      kept,
      nextCursor: rows.length > limit && last ? encodeAuditCursor({ at: atOf(last), id: last.id }) : null,
    };
  };

  return {
    /** POST /v4/admin/audit-trail/verify: the code of `npm run audit:verify` (verifyAuditChains), not a copy. */
    verify(principal: Principal): Promise<AuditVerification> {
      if (!isOrgAdmin(principal)) throw forbidden();
      verifying ??= verifyAuditChains(db)
        .then((result) => ({
          holds: result.problems.length === 0,
          rows: result.rows,
          checkedAt: now().toISOString(),
          chains: result.chains,
          problems: result.problems,
        }))
        .finally(() => {
          verifying = null;
        });
      return verifying;
    },

    async list(principal: Principal, query: AuditTrailQuery): Promise<AuditTrailPage> {
      if (!isOrgAdmin(principal)) throw forbidden();
      const limit = query.limit ?? AUDIT_TRAIL_PAGE_DEFAULT;
      const cursor = cursorOf(query);
      if (query.log === 'reads') {
        if (query.action !== undefined) throw badRequest('query.action: the reads log has no actions to filter by.');
        let select = db.selectFrom('case_read_audit').selectAll();
        if (cursor)
          select = select.where((eb) =>
            eb.or([eb('read_at', '<', cursor.at), eb.and([eb('read_at', '=', cursor.at), eb('id', '<', cursor.id)])]),
          );
        if (query.caseId !== undefined) select = select.where('case_id', '=', query.caseId);
        if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
        if (query.chain !== undefined) select = select.where('chain', '=', query.chain);
        if (query.from !== undefined) select = select.where('read_at', '>=', new Date(query.from).toISOString());
        if (query.to !== undefined) select = select.where('read_at', '<', new Date(query.to).toISOString());
        const rows = await select
          .orderBy('read_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit + 1)
          .execute();
        const { kept, nextCursor } = page(rows, limit, (row) => row.read_at);
        return {
          entries: kept.map((row): AuditTrailEntry => ({
            id: row.id,
            at: row.read_at,
            actorId: row.user_id,
            action: `case.read.${row.access}`,
            entityType: 'case',
            entityId: row.case_id,
            caseId: row.case_id,
            detail: { hospitalId: row.hospital_id },
            chainRef: chainRef(row),
          })),
          nextCursor,
        };
      }
      let select = db.selectFrom('security_audit').selectAll();
      if (cursor)
        select = select.where((eb) =>
          eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]),
        );
      if (query.caseId !== undefined) select = select.where('case_id', '=', query.caseId);
      if (query.userId !== undefined) select = select.where('actor_id', '=', query.userId);
      if (query.action !== undefined) select = select.where('action', '=', query.action);
      if (query.chain !== undefined) select = select.where('chain', '=', query.chain);
      if (query.from !== undefined) select = select.where('at', '>=', new Date(query.from).toISOString());
      if (query.to !== undefined) select = select.where('at', '<', new Date(query.to).toISOString());
      const rows = await select
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const { kept, nextCursor } = page(rows, limit, (row) => row.at);
      return {
        entries: kept.map((row): AuditTrailEntry => ({
          id: row.id,
          at: row.at,
          actorId: row.actor_id,
          action: row.action,
          entityType: row.entity_type,
          entityId: row.entity_id,
          caseId: row.case_id,
          detail: parseJson<AuditTrailEntry['detail']>(row.detail, null),
          chainRef: chainRef(row),
        })),
        nextCursor,
      };
    },
  };
}

export type AuditTrailService = ReturnType<typeof createAuditTrailService>;
