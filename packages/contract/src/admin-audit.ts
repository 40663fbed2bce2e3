/**
 * The audit log of organisation administration (issue 5): every change an organisation admin makes to
 * users, agencies, hospitals or complaint sets is one entry — who, when, what, and the entity before and
 * after (never a password or its hash). Read by organisation admins only, newest first, by cursor.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { Id } from './entities.js';

/** The kinds of things administered; `entityType` of an entry. */
export const ADMIN_ENTITY_TYPES = ['user', 'agency', 'hospital', 'complaintSet', 'truck'] as const;
export const AdminEntityType = z.enum(ADMIN_ENTITY_TYPES);
export type AdminEntityType = z.infer<typeof AdminEntityType>;

export const AdminAuditEntry = z.object({
  id: Id,
  at: z.iso.datetime(),
  actor: z.object({ id: Id, name: z.string() }),
  /** What was done, `{entityType}.{verb}`: user.invite, user.disable, agency.update, … */
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  /** One readable sentence: "Invited Dana Reyes (dreyes) as ED staff". */
  summary: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

export const ADMIN_AUDIT_PAGE_DEFAULT = 50;
export const ADMIN_AUDIT_PAGE_MAX = 200;

export const AdminAuditQuery = z.object({
  /** `nextCursor` of the previous page; absent for the newest entries. */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_AUDIT_PAGE_MAX).optional(),
  entityType: z.string().min(1).max(64).optional(),
  entityId: Id.optional(),
  /** Only the changes made by this admin. */
  actorId: Id.optional(),
});
export type AdminAuditQuery = z.infer<typeof AdminAuditQuery>;

export const AdminAuditPage = z.object({
  entries: z.array(AdminAuditEntry),
  /** Pass as `cursor` for the next (older) page; null when this page is the last. */
  nextCursor: z.string().nullable(),
});
export type AdminAuditPage = z.infer<typeof AdminAuditPage>;

export const adminAuditRoutes = {
  adminAuditLog: {
    method: 'GET',
    path: '/v4/admin/audit-log',
    summary: 'The administration audit log, newest first (organisation admins)',
    auth: true,
    query: AdminAuditQuery,
    response: AdminAuditPage,
  },
} as const satisfies Record<string, RouteDef>;
