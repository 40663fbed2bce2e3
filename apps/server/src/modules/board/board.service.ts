/**
 * The hospital console's inbound board, a case's detail for its destination ED, and the ED's
 * acknowledgement. Who: ED staff of the hospital (users on its staff list, which is how a hospital's
 * own administrators are listed too). Organisation admins who are not on that list, crews and
 * everybody else get 403; a hospital not on the platform (nonTwiage) gets no case data at all (§6).
 * A case is only ever shown to the staff of its current destination: another hospital's case is 404.
 */
import {
  BOARD_HISTORY_HOURS,
  type AcknowledgeResponse,
  type BoardCaseDetail,
  type BoardResponse,
  type Hospital,
  type PatientInfoEntry,
  type PatientInfoField,
  type TagFieldValue,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { parseJson } from '../../db/json.js';
import { conflict, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { CasesService } from '../cases/cases.service.js';
import type { BoardRepository } from './board.repository.js';
import { createBoardCards, tagsOf } from './board-cards.js';
import type { ReadAudit } from './read-audit.js';

/** At most this many arrived cases in the history list. */
const HISTORY_LIMIT = 50;

export interface BoardServiceDeps {
  repo: BoardRepository;
  audit: ReadAudit;
  clock: Clock;
  access: Pick<CaseAccess, 'requireHospitalStaff' | 'requireInbound'>;
  /** The cases module records the acknowledgement. */
  cases: Pick<CasesService, 'acknowledge'>;
  complaints: { setById(id: string): Promise<PublishedSet | null> };
  agencies: { patientInfoForms(agencyId: string): Promise<{ id: string; fields: PatientInfoField[] }[]> };
}

export function createBoardService(deps: BoardServiceDeps) {
  const { repo, audit, clock, complaints, agencies, access, cases } = deps;
  const { cards } = createBoardCards({ repo, complaints });

  const requireStaff = (principal: Principal, hospitalId: string) => access.requireHospitalStaff(principal, hospitalId);
  const requireInbound = (principal: Principal, hospitalId: string, caseId: string) =>
    access.requireInbound(principal, hospitalId, caseId);

  const hospitalSummary = (h: Hospital): BoardResponse['hospital'] => ({
    id: h._id,
    name: h.name,
    location: h.location,
  });

  return {
    /** GET /v4/hospitals/{id}/inbound */
    async board(principal: Principal, hospitalId: string): Promise<BoardResponse> {
      const hospital = await requireStaff(principal, hospitalId);
      const now = clock.now();
      const since = new Date(now.getTime() - BOARD_HISTORY_HOURS * 3_600_000).toISOString();
      const [open, arrived] = await Promise.all([
        repo.openCases(hospitalId),
        repo.recentlyArrived(hospitalId, since, HISTORY_LIMIT),
      ]);
      const all = await cards([...open, ...arrived]);
      await audit.board(
        principal.userId,
        hospitalId,
        all.map((c) => c.id),
        now,
      );
      return { hospital: hospitalSummary(hospital), open: all.slice(0, open.length), history: all.slice(open.length) };
    },

    /** GET /v4/hospitals/{id}/inbound/{caseId}: the case in full; the read is audited before it is answered. */
    async detail(principal: Principal, hospitalId: string, caseId: string): Promise<BoardCaseDetail> {
      const { hospital, row } = await requireInbound(principal, hospitalId, caseId);
      const [[card], events, valueRows, forms, media, set] = await Promise.all([
        cards([row]),
        repo.events(caseId),
        repo.tagValues([caseId]),
        agencies.patientInfoForms(row.agency_id),
        repo.mediaCounts([caseId]),
        complaints.setById(row.complaint_set_id),
      ]);
      if (!card) throw notFound('Case');
      await audit.detail(principal.userId, hospitalId, caseId, clock.now());
      const tagNames = tagsOf(set);
      const fieldNames = new Map(forms.flatMap((f) => f.fields.map((field) => [field.key, field.name] as const)));
      const perType = media.get(caseId) ?? new Map<string, number>();
      const history = new Map<string, { fields: TagFieldValue[]; updatedAt: string }[]>();
      for (const v of valueRows) {
        const list = history.get(v.tag_id) ?? [];
        list.push({ fields: parseJson<TagFieldValue[]>(v.fields, []), updatedAt: v.updated_at });
        history.set(v.tag_id, list);
      }
      const route = events.flatMap((e) => {
        if (e.type !== 'location') return [];
        const p = parseJson<{ latitude?: number; longitude?: number; recordedAt?: string }>(e.payload, {});
        return typeof p.latitude === 'number' && typeof p.longitude === 'number'
          ? [{ latitude: p.latitude, longitude: p.longitude, recordedAt: p.recordedAt ?? e.created_at }]
          : [];
      });
      return {
        ...card,
        hospital: hospitalSummary(hospital),
        tagHistory: [...history].map(([id, values]) => ({ id, name: tagNames.get(id)?.name ?? id, values })),
        patientInfo: parseJson<PatientInfoEntry[]>(row.patient_info, []).map((entry) => ({
          ...entry,
          name: fieldNames.get(entry.key) ?? entry.key,
        })),
        mediaCounts: {
          photo: perType.get('photo') ?? 0,
          id: perType.get('id') ?? 0,
          ekg: perType.get('ekg') ?? 0,
          video: perType.get('video') ?? 0,
          voicememo: perType.get('voicememo') ?? 0,
        },
        route,
        timeline: events.map((e) => {
          const detail = parseJson<Record<string, unknown>>(e.payload, {});
          const tagId = typeof detail.tagId === 'string' ? detail.tagId : null;
          const complaintId = typeof detail.complaint === 'string' ? detail.complaint : null;
          const named: Record<string, unknown> = { ...detail };
          if (tagId) named.tagName = tagNames.get(tagId)?.name ?? tagId;
          if (complaintId && e.type === 'complaint')
            named.complaintName = set?.complaints.get(complaintId)?.name ?? complaintId;
          return {
            seq: Number(e.seq),
            type: e.type,
            at: e.created_at,
            clientAt: e.client_created_at,
            actorName: e.display_name ?? '',
            detail: named,
          };
        }),
      };
    },

    /** POST /v4/hospitals/{id}/inbound/{caseId}/acknowledge: once per case and hospital; repeats answer the first. */
    async acknowledge(principal: Principal, hospitalId: string, caseId: string): Promise<AcknowledgeResponse> {
      const { hospital } = await requireInbound(principal, hospitalId, caseId);
      const byName = (await repo.displayName(principal.userId)) ?? principal.username;
      const outcome = await cases.acknowledge({
        caseId,
        hospitalId,
        hospitalName: hospital.name,
        userId: principal.userId,
        byName,
      });
      switch (outcome.kind) {
        case 'gone':
          throw notFound('Case');
        case 'closed':
          throw conflict('The case is closed: the patient has arrived.', 'case_closed');
        case 'already':
          return { caseId, acknowledgement: { byName: outcome.byName, at: outcome.at } };
        case 'acknowledged':
          return { caseId, acknowledgement: { byName, at: outcome.at } };
      }
    },
  };
}

export type BoardService = ReturnType<typeof createBoardService>;
