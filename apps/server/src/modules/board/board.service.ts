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
  type BoardCase,
  type BoardCaseDetail,
  type BoardResponse,
  type BoardTag,
  type Complaint,
  type Hospital,
  type PatientInfoEntry,
  type PatientInfoField,
  type TagFieldValue,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, parseJson } from '../../db/json.js';
import type { CaseRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import { lastLocationOf } from '../cases/last-location.js';
import type { CaseChangeNotice } from '../realtime/case-publisher.js';
import type { BoardRepository } from './board.repository.js';
import type { ReadAudit } from './read-audit.js';

/** At most this many arrived cases in the history list. */
const HISTORY_LIMIT = 50;

export interface BoardServiceDeps {
  repo: BoardRepository;
  audit: ReadAudit;
  clock: Clock;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
  complaints: { setById(id: string): Promise<PublishedSet | null> };
  agencies: { patientInfoForms(agencyId: string): Promise<{ id: string; fields: PatientInfoField[] }[]> };
  publishChange(notice: CaseChangeNotice): void;
}

type TagInfo = { name: string };

/** Every tag of a complaint set by id (tag ids are unique within a set). */
function tagsOf(set: PublishedSet | null): Map<string, TagInfo> {
  const tags = new Map<string, TagInfo>();
  for (const complaint of set?.complaints.values() ?? []) {
    for (const section of complaint.sections) for (const tag of section.tags) tags.set(tag.id, { name: tag.name });
  }
  return tags;
}

export function createBoardService(deps: BoardServiceDeps) {
  const { repo, audit, clock, hospitals, complaints, agencies } = deps;

  async function requireStaff(principal: Principal, hospitalId: string): Promise<Hospital> {
    if (!principal.edHospitalIds.includes(hospitalId)) throw forbidden();
    const [hospital] = await hospitals.hospitalsByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    if (hospital.nonTwiage) throw forbidden();
    return hospital;
  }

  async function requireInbound(principal: Principal, hospitalId: string, caseId: string) {
    const hospital = await requireStaff(principal, hospitalId);
    const row = await repo.findCase(caseId);
    if (row?.destination_hospital_id !== hospitalId) throw notFound('Case');
    return { hospital, row };
  }

  const hospitalSummary = (h: Hospital): BoardResponse['hospital'] => ({
    id: h._id,
    name: h.name,
    location: h.location,
  });

  /** The cards of the given cases, in the order given. */
  async function cards(rows: CaseRow[]): Promise<BoardCase[]> {
    const ids = rows.map((r) => r.id);
    const setIds = [...new Set(rows.map((r) => r.complaint_set_id))];
    const [agencyRows, truckRows, tagRows, valueRows, unread, media, sets] = await Promise.all([
      repo.agencies([...new Set(rows.map((r) => r.agency_id))]),
      repo.trucks([...new Set(rows.map((r) => r.truck_id))]),
      repo.tags(ids),
      repo.tagValues(ids),
      repo.unreadChat(ids),
      repo.mediaCounts(ids),
      Promise.all(setIds.map(async (id) => [id, await complaints.setById(id)] as const)),
    ]);
    const setById = new Map(sets);
    const agencyById = new Map(agencyRows.map((a) => [a.id, a]));
    const truckById = new Map(truckRows.map((t) => [t.id, t]));
    // Rows come oldest first: the last one seen per tag is its newest save.
    const newestValues = new Map<string, { fields: TagFieldValue[]; updatedAt: string }>();
    for (const v of valueRows) {
      newestValues.set(`${v.case_id} ${v.tag_id}`, {
        fields: parseJson<TagFieldValue[]>(v.fields, []),
        updatedAt: v.updated_at,
      });
    }
    return rows.map((row) => {
      const set = setById.get(row.complaint_set_id) ?? null;
      const tagNames = tagsOf(set);
      const complaint: Complaint | undefined = row.complaint_id ? set?.complaints.get(row.complaint_id) : undefined;
      const tags: BoardTag[] = tagRows
        .filter((t) => t.case_id === row.id)
        .map((t) => {
          const values = newestValues.get(`${row.id} ${t.tag_id}`);
          return {
            id: t.tag_id,
            name: tagNames.get(t.tag_id)?.name ?? t.tag_id,
            fields: values?.fields ?? [],
            updatedAt: values?.updatedAt ?? null,
          };
        });
      const agency = agencyById.get(row.agency_id);
      const truck = truckById.get(row.truck_id);
      const mediaCount = [...(media.get(row.id)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
      return {
        id: row.id,
        caseNumber: row.case_number,
        complaint: complaint
          ? { id: complaint.id, name: complaint.name, color: complaint.color, priority: complaint.priority }
          : null,
        tags,
        age: row.age === null ? null : Number(row.age),
        agePeriod: Number(row.age_period) as 1 | 2 | 3,
        gender: row.gender,
        agency: { id: row.agency_id, name: agency?.name ?? row.agency_id },
        truck: { id: row.truck_id, name: truck?.name ?? row.truck_id, isALS: fromFlag(truck?.is_als) },
        startedAt: new Date(row.began_at).toISOString(),
        arrivedAt: row.arrived_at,
        closedAt: row.closed_at,
        lastLocation: lastLocationOf(row),
        acknowledgement:
          row.acknowledged_hospital_id === row.destination_hospital_id &&
          row.acknowledged_at !== null &&
          row.acknowledged_by_name !== null
            ? { byName: row.acknowledged_by_name, at: row.acknowledged_at }
            : null,
        unreadChat: unread.get(row.id) ?? 0,
        mediaCount,
      };
    });
  }

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
      await requireInbound(principal, hospitalId, caseId);
      const byName = (await repo.displayName(principal.userId)) ?? principal.username;
      const outcome = await repo.acknowledge({
        caseId,
        hospitalId,
        userId: principal.userId,
        byName,
        at: clock.now().toISOString(),
      });
      switch (outcome.kind) {
        case 'gone':
          throw notFound('Case');
        case 'closed':
          throw conflict('The case is closed: the patient has arrived.', 'case_closed');
        case 'already':
          return { caseId, acknowledgement: { byName: outcome.byName, at: outcome.at } };
        case 'acknowledged':
          deps.publishChange({ caseId, event: outcome.event });
          return { caseId, acknowledgement: { byName, at: outcome.event.createdAt } };
      }
    },
  };
}

export type BoardService = ReturnType<typeof createBoardService>;
