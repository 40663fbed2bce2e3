/**
 * Complaint sets, read by name. A user reads a set one of their teams uses (organisation admins read
 * any): a set that exists but belongs to other teams → 403, a name no set has → 404. Both are
 * deliberate: a crew app asking for its own team's set and getting [] would hide a configuration error.
 */
import type { Complaint, ComplaintSet } from '@inbound/contract';
import { parseJson } from '../../db/json.js';
import { createVersionedCache, deepFreeze } from '../../db/reference-version.js';
import { forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { ComplaintsRepository } from './complaints.repository.js';

export interface ComplaintsServiceDeps {
  repo: ComplaintsRepository;
  /** From the agencies module: the set names the user's teams use. */
  agencies: { complaintSetNames(agencyIds: readonly string[]): Promise<string[]> };
}

/** A set version as the case module checks against it: complaints by id. */
export interface PublishedSet {
  id: string;
  name: string;
  complaints: ReadonlyMap<string, Complaint>;
}

/** Bound on remembered answers (one per name and version limit asked for). */
const ANSWER_CACHE_SIZE = 100;

export function createComplaintsService({ repo, agencies }: ComplaintsServiceDeps) {
  // A published version never changes (a change is a new version), so its parse can be kept.
  const setsById = new Map<string, PublishedSet>();
  const toPublished = (row: { id: string; name: string; complaints: string }): PublishedSet => {
    const set = {
      id: row.id,
      name: row.name,
      complaints: new Map(parseJson<Complaint[]>(row.complaints, []).map((c) => [c.id, c])),
    };
    setsById.set(row.id, set);
    return set;
  };
  // The API's largest answer. Its versions never change, so each is read and parsed once; the list of
  // versions of a name is kept, frozen, until the database's reference version moves (a new version
  // published), which lets the route reuse its serialized body without even stringifying it
  // (http/serialized-body.ts). null: no set of that name.
  const answersById = new Map<string, ComplaintSet>();
  const answersByName = createVersionedCache<ComplaintSet[] | null>(repo.referenceVersion, ANSWER_CACHE_SIZE);
  async function versionAnswer(id: string): Promise<ComplaintSet> {
    const cached = answersById.get(id);
    if (cached) return cached;
    const row = await repo.findById(id);
    if (!row) throw notFound('Complaint set'); // versions are never deleted; a vanished one is not found
    const answer = deepFreeze({
      _id: row.id,
      name: row.name,
      version: Number(row.version),
      complaints: parseJson<Complaint[]>(row.complaints, []),
    });
    answersById.set(id, answer);
    return answer;
  }

  return {
    /** The newest version of a set by name (a new case is checked against it); null when none. */
    async newestSet(name: string): Promise<PublishedSet | null> {
      const [row] = await repo.findByName(name, 1);
      return row ? (setsById.get(row.id) ?? toPublished(row)) : null;
    },

    /** A set version by id, for internal checks (no access check: the caller has done its own). */
    async setById(id: string): Promise<PublishedSet | null> {
      const cached = setsById.get(id);
      if (cached) return cached;
      const row = await repo.findById(id);
      return row ? toPublished(row) : null;
    },

    async findByName(
      principal: Principal,
      query: { name: string; firstOccurrenceOnly?: 'true' | 'false' | undefined },
    ): Promise<ComplaintSet[]> {
      const limit = query.firstOccurrenceOnly === 'true' ? 1 : undefined;
      const answer = await answersByName.get(`${limit ?? 'all'}\n${query.name}`, async () => {
        const versions = await repo.versionsByName(query.name, limit);
        return versions.length === 0 ? null : Promise.all(versions.map((v) => versionAnswer(v.id)));
      });
      if (answer === null) throw notFound('Complaint set');
      if (!isOrgAdmin(principal)) {
        const names = await agencies.complaintSetNames(principal.teamIds);
        if (!names.includes(query.name)) throw forbidden();
      }
      return answer;
    },
  };
}

export type ComplaintsService = ReturnType<typeof createComplaintsService>;
