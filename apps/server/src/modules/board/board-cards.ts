/**
 * The board's cards: what the inbound board shows of each case, read in a few set-wise queries (never
 * one query per case). The board reads them for its list; the case outbox reads one card per case
 * event, so a console replaces exactly that card from the message instead of reading its board again.
 */
import type { BoardCase, BoardTag, Complaint, TagFieldValue } from '@inbound/contract';
import { fromFlag, parseJson } from '../../db/json.js';
import type { CaseRow } from '../../db/schema.js';
import { seenByDestination } from '../cases/case-access.js';
import { lastLocationOf } from '../cases/last-location.js';
import { arrivalFields } from '../arrival/arrival-state.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import type { BoardRepository } from './board.repository.js';

export interface BoardCardsDeps {
  repo: BoardRepository;
  complaints: { setById(id: string): Promise<PublishedSet | null> };
}

type TagInfo = { name: string };

/** Every tag of a complaint set by id (tag ids are unique within a set). */
export function tagsOf(set: PublishedSet | null): Map<string, TagInfo> {
  const tags = new Map<string, TagInfo>();
  for (const complaint of set?.complaints.values() ?? []) {
    for (const section of complaint.sections) for (const tag of section.tags) tags.set(tag.id, { name: tag.name });
  }
  return tags;
}

export function createBoardCards({ repo, complaints }: BoardCardsDeps) {
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
    // Each set's tag names once per call, not once per card (a relay batch builds up to 500 cards).
    const tagNamesBySet = new Map(sets.map(([id, set]) => [id, tagsOf(set)]));
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
      const tagNames = tagNamesBySet.get(row.complaint_set_id) ?? tagsOf(null);
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
      const seen = seenByDestination(row);
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
        acknowledgement: seen ? { byName: seen.byName, at: seen.at } : null,
        unreadChat: unread.get(row.id) ?? 0,
        mediaCount,
        ...arrivalFields(row),
      };
    });
  }

  return {
    cards,
    /** One case's card. */
    async card(row: CaseRow): Promise<BoardCase> {
      const [card] = await cards([row]);
      return card!;
    },
  };
}

export type BoardCards = ReturnType<typeof createBoardCards>;
