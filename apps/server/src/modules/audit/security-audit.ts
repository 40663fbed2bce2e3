/**
 * The security audit log (issue 17): sign-ins (and failed ones), sign-outs, password and MFA changes,
 * and every change of a case — who, what, when, which case — hash-chained like the other audit logs
 * (audit-chain.ts). Only ids and codes are kept: never patient data, a typed user name, a password or a
 * token. A case change is recorded by `CasesRepository.appendEvent` in the change's own transaction, its
 * row written with the write's last statement (cases.repository.ts).
 */
import type { Kysely } from 'kysely';
import type { DB, SecurityAuditTable } from '../../db/schema.js';
import { timeOrderedId } from '../../db/time-ordered-id.js';
import { appendAudit, chainShard, type Unchained } from './audit-chain.js';

export interface SecurityEvent {
  /** Who did it; null when a sign-in named no account. */
  actorId: string | null;
  /** auth.signIn, auth.signInFailed, auth.signOut, auth.passwordChange, mfa.enrol, …, case.{event type} */
  action: string;
  entityType: 'user' | 'session' | 'case';
  entityId: string;
  caseId?: string;
  /** Ids and codes only (client, address, reason, event id). */
  detail?: Record<string, string | number | boolean | null>;
  at: Date;
}

/** The audit row of `event` and the chain it goes to. */
export function securityAuditEntry(event: SecurityEvent): { chain: string; row: Unchained<SecurityAuditTable> } {
  const row: Unchained<SecurityAuditTable> = {
    id: timeOrderedId(),
    at: event.at.toISOString(),
    actor_id: event.actorId,
    action: event.action,
    entity_type: event.entityType,
    entity_id: event.entityId,
    case_id: event.caseId ?? null,
    detail: event.detail ? JSON.stringify(event.detail) : null,
  };
  // Case changes are chained by case (writes to different cases do not queue on one head); the rest by
  // actor, or by the sign-in's address when it named no account.
  const chain =
    event.caseId !== undefined
      ? chainShard('case', event.caseId)
      : chainShard('auth', event.actorId ?? String(event.detail?.address ?? ''));
  return { chain, row };
}

export function recordSecurityEvent(db: Kysely<DB>, event: SecurityEvent): Promise<void> {
  const { chain, row } = securityAuditEntry(event);
  return appendAudit(db, 'security_audit', [{ chain, row: { ...row } }]);
}
