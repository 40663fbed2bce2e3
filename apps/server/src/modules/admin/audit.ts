/**
 * The administration audit log (issue 5): every change an organisation admin makes is recorded by
 * `recordAdminChange`, called with the change's own transaction so the entry exists exactly when the
 * change does. Entries are only ever inserted. Before/after snapshots are JSON; keys that look like
 * secrets (password, hash, token, secret) are dropped whatever the caller passes, so a password or its
 * hash cannot reach the log by accident.
 *
 * `createAdminAuditService` reads the log for `GET /v4/admin/audit-log` (organisation admins only),
 * newest first, paged by an opaque cursor (the last entry's time and id).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ADMIN_AUDIT_PAGE_DEFAULT,
  type AdminAuditEntry,
  type AdminAuditPage,
  type AdminAuditQuery,
} from '@inbound/contract';
import { parseJson } from '../../db/json.js';
import type { AdminAuditTable, DB } from '../../db/schema.js';
import { badRequest, forbidden } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import { appendAudit, type Unchained } from '../audit/audit-chain.js';

export interface AdminChange {
  actor: Principal;
  /** `{entityType}.{verb}`: user.invite, user.disable, agency.update, … */
  action: string;
  entityType: string;
  entityId: string;
  /** One readable sentence naming the thing changed: "Disabled Dana Reyes (dreyes)". */
  summary: string;
  before?: unknown;
  after?: unknown;
  /** When; now by default (tests pass their clock's time). */
  at?: Date;
}

const SECRET_KEY = /password|hash|token|secret/i;

/** A JSON copy of the value without any secret-looking key, at any depth. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(key) || inner === undefined || typeof inner === 'function') continue;
      out[key] = redactSecrets(inner);
    }
    return out;
  }
  return value;
}

const snapshot = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(redactSecrets(value));

let lastMs = 0;
let counter = 0;
/**
 * Entry ids sort in the order they were made in this process (time, then a counter, then randomness):
 * entries of the same instant keep their order in the newest-first listing.
 */
export function auditEntryId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter += 1;
  return `${lastMs.toString(16).padStart(12, '0')}${counter.toString(16).padStart(6, '0')}-${randomUUID()}`;
}

/**
 * Records one administration change. Call it with the transaction that makes the change (a Kysely
 * `Transaction` is a `Kysely`), after the change's own writes: if the change rolls back, so does this.
 */
export async function recordAdminChange(db: Kysely<DB>, change: AdminChange): Promise<void> {
  const actor = await db
    .selectFrom('users')
    .select('display_name')
    .where('id', '=', change.actor.userId)
    .executeTakeFirst();
  const row: Unchained<AdminAuditTable> = {
    id: auditEntryId(),
    at: (change.at ?? new Date()).toISOString(),
    actor_id: change.actor.userId,
    actor_name: actor?.display_name ?? change.actor.username,
    action: change.action,
    entity_type: change.entityType,
    entity_id: change.entityId,
    summary: change.summary,
    before: snapshot(change.before),
    after: snapshot(change.after),
  };
  await appendAudit(db, 'admin_audit', [{ chain: 'admin', row: { ...row } }]);
}

interface Cursor {
  at: string;
  id: string;
}

export function encodeAuditCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeAuditCursor(text: string): Cursor | null {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const bar = decoded.indexOf('|');
  if (bar <= 0) return null;
  const at = decoded.slice(0, bar);
  const id = decoded.slice(bar + 1);
  if (Number.isNaN(Date.parse(at)) || id === '') return null;
  return { at, id };
}

function toEntry(row: AdminAuditTable): AdminAuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: { id: row.actor_id, name: row.actor_name },
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    summary: row.summary,
    before: parseJson<unknown>(row.before, null),
    after: parseJson<unknown>(row.after, null),
  };
}

export function createAdminAuditService(db: Kysely<DB>) {
  return {
    async list(principal: Principal, query: AdminAuditQuery): Promise<AdminAuditPage> {
      if (!isOrgAdmin(principal)) throw forbidden();
      const limit = query.limit ?? ADMIN_AUDIT_PAGE_DEFAULT;
      let select = db.selectFrom('admin_audit').selectAll();
      if (query.cursor !== undefined) {
        const cursor = decodeAuditCursor(query.cursor);
        if (!cursor) throw badRequest('query.cursor: not a cursor of this log; start again without it.');
        select = select.where((eb) =>
          eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]),
        );
      }
      if (query.entityType !== undefined) select = select.where('entity_type', '=', query.entityType);
      if (query.entityId !== undefined) select = select.where('entity_id', '=', query.entityId);
      if (query.actorId !== undefined) select = select.where('actor_id', '=', query.actorId);
      const rows = await select
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        entries: page.map(toEntry),
        nextCursor: rows.length > limit && last ? encodeAuditCursor({ at: last.at, id: last.id }) : null,
      };
    },
  };
}

export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
