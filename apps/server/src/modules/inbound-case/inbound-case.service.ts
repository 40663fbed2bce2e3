/**
 * The parts of an inbound case the hospital console reads beside its detail: the uploads (for the
 * players), the chat and the crews' case feedback (issue 5 items 3 and 7). Same rule as the detail
 * (board.service.ts): only ED staff of the case's current destination hospital, on the platform —
 * others 403, another hospital's or an unknown case 404 — and every read is recorded in
 * `case_read_audit` (access `media`, `chat`, `feedback`) before it is answered.
 */
import type { ChatMessagesResponse, InboundCaseFeedbackResponse, MediaListResponse } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { CaseReadAuditTable } from '../../db/schema.js';
import type { Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { InboundCaseRepository } from './inbound-case.repository.js';

export interface InboundCaseServiceDeps {
  repo: InboundCaseRepository;
  clock: Clock;
  access: Pick<CaseAccess, 'requireInbound'>;
  media: { list(principal: Principal, caseId: string): Promise<MediaListResponse> };
  chat: { list(principal: Principal, caseId: string): Promise<ChatMessagesResponse> };
}

type Access = Extract<CaseReadAuditTable['access'], 'media' | 'chat' | 'feedback'>;

export function createInboundCaseService({ repo, clock, access: caseAccess, media, chat }: InboundCaseServiceDeps) {
  /** The destination-ED check of the case detail, then the audit row: nothing is answered unrecorded. */
  async function requireInbound(principal: Principal, hospitalId: string, caseId: string, access: Access) {
    const { row } = await caseAccess.requireInbound(principal, hospitalId, caseId);
    await repo.recordRead({
      user_id: principal.userId,
      hospital_id: hospitalId,
      case_id: caseId,
      access,
      read_at: clock.now().toISOString(),
    });
    return row;
  }

  return {
    /** GET /v4/hospitals/{id}/inbound/{caseId}/media */
    async media(principal: Principal, hospitalId: string, caseId: string): Promise<MediaListResponse> {
      await requireInbound(principal, hospitalId, caseId, 'media');
      return media.list(principal, caseId);
    },

    /** GET /v4/hospitals/{id}/inbound/{caseId}/chat */
    async chat(principal: Principal, hospitalId: string, caseId: string): Promise<ChatMessagesResponse> {
      await requireInbound(principal, hospitalId, caseId, 'chat');
      return chat.list(principal, caseId);
    },

    /** GET /v4/hospitals/{id}/inbound/{caseId}/feedback */
    async feedback(principal: Principal, hospitalId: string, caseId: string): Promise<InboundCaseFeedbackResponse> {
      await requireInbound(principal, hospitalId, caseId, 'feedback');
      const rows = await repo.feedback(caseId);
      return {
        feedback: rows.map((r) => ({
          id: r.id,
          rating: Number(r.rating),
          notes: r.notes,
          byName: r.display_name ?? r.username ?? 'A crew member',
          agencyName: r.agency_name ?? r.agency_id,
          createdAt: new Date(r.created_at).toISOString(),
        })),
      };
    },
  };
}

export type InboundCaseService = ReturnType<typeof createInboundCaseService>;
