/**
 * The organisation's audit trail (issue 17), for organisation admins: the security log (sign-ins,
 * failed sign-ins, sign-outs, password and MFA changes, every change of a case) and the log of reads of
 * case data by hospital staff. Entries hold ids and codes only, never patient data or a token. Both logs
 * are hash-chained on the server (`npm run audit:verify`).
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { ADMIN_AUDIT_PAGE_DEFAULT, ADMIN_AUDIT_PAGE_MAX } from './admin-audit.js';
import { Id } from './entities.js';

export const AUDIT_TRAIL_LOGS = ['security', 'reads'] as const;
export const AuditTrailLog = z.enum(AUDIT_TRAIL_LOGS);
export type AuditTrailLog = z.infer<typeof AuditTrailLog>;
export const AUDIT_TRAIL_PAGE_DEFAULT = ADMIN_AUDIT_PAGE_DEFAULT;

export const AuditTrailEntry = z.object({
  id: Id,
  at: z.iso.datetime(),
  /** Who; null for a failed sign-in under a name that is no account. */
  actorId: Id.nullable(),
  /** security: auth.signIn, auth.signInFailed, auth.signOut, auth.passwordChange, mfa.*, case.{event type}; reads: case.read.{board|detail|media|chat|feedback} */
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  caseId: Id.nullable(),
  /** Ids and codes: address, client, reason, event id, the reading hospital. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
  /** Its place in its hash chain: `{chain}#{seq}`. */
  chainRef: z.string(),
});
export type AuditTrailEntry = z.infer<typeof AuditTrailEntry>;

export const AuditTrailQuery = z.object({
  log: AuditTrailLog.default('security'),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_AUDIT_PAGE_MAX).optional(),
  /** Only entries about this case. */
  caseId: Id.optional(),
  /** Only entries of this user (the actor, or the reader). */
  userId: Id.optional(),
  /** Only this action (security log), e.g. auth.signInFailed. */
  action: z.string().min(1).max(64).optional(),
  /** Only this hash chain, e.g. `auth:3` (the part of an entry's chainRef before `#`). */
  chain: z
    .string()
    .regex(/^[a-z]+(:\d{1,2})?$/, 'a chain name like auth:3')
    .optional(),
  /** Only entries at or after this moment. */
  from: z.iso.datetime().optional(),
  /** Only entries before this moment. */
  to: z.iso.datetime().optional(),
});
export type AuditTrailQuery = z.infer<typeof AuditTrailQuery>;

export const AuditTrailPage = z.object({
  entries: z.array(AuditTrailEntry),
  nextCursor: z.string().nullable(),
});
export type AuditTrailPage = z.infer<typeof AuditTrailPage>;

/** The result of walking every hash chain (the server's `npm run audit:verify`, same code). */
export const AuditVerification = z.object({
  /** Every chain holds. */
  holds: z.boolean(),
  rows: z.number().int().nonnegative(),
  checkedAt: z.iso.datetime(),
  /** Each chain's head: keep a copy elsewhere as an anchor. */
  chains: z.array(z.object({ chain: z.string(), seq: z.number().int(), hash: z.string() })),
  /** The first broken link of each broken chain. */
  problems: z.array(z.object({ table: z.string(), chain: z.string(), seq: z.number().int(), problem: z.string() })),
});
export type AuditVerification = z.infer<typeof AuditVerification>;

export const auditTrailRoutes = {
  adminAuditTrail: {
    method: 'GET',
    path: '/v4/admin/audit-trail',
    summary: "The organisation's security and case-read audit trail, newest first (organisation admins)",
    auth: true,
    query: AuditTrailQuery,
    response: AuditTrailPage,
  },
  adminAuditVerify: {
    method: 'POST',
    path: '/v4/admin/audit-trail/verify',
    summary: 'Walk every audit hash chain now and answer whether they hold (organisation admins; one at a time)',
    auth: true,
    response: AuditVerification,
  },
} as const satisfies Record<string, RouteDef>;
