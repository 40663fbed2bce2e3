/**
 * Complaint sets, read by name. A user reads a set one of their teams uses (organisation admins read
 * any): a set that exists but belongs to other teams → 403, a name no set has → 404. Both are
 * deliberate: a crew app asking for its own team's set and getting [] would hide a configuration error.
 */
import type { Complaint, ComplaintSet } from '@inbound/contract';
import { parseJson } from '../../db/json.js';
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

/** Bound on remembered answers (one per name and version list asked for). */
const ANSWER_CACHE_SIZE = 100;

/** Freezes an answer all the way down: it is shared between requests, and its identity stands for its content. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

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
  // The API's largest answer. Its versions never change, so each is read and parsed once; the answer
  // for a list of versions is kept whole and frozen, which lets the route reuse its serialized body
  // without even stringifying it (http/serialized-body.ts).
  const answersById = new Map<string, ComplaintSet>();
  const answersByVersions = new Map<string, ComplaintSet[]>(); // frozen at run time
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
      const versions = await repo.versionsByName(query.name, query.firstOccurrenceOnly === 'true' ? 1 : undefined);
      if (versions.length === 0) throw notFound('Complaint set');
      if (!isOrgAdmin(principal)) {
        const names = await agencies.complaintSetNames(principal.teamIds);
        if (!names.includes(query.name)) throw forbidden();
      }
      const key = versions.map((v) => v.id).join('\n');
      const cached = answersByVersions.get(key);
      if (cached) return cached;
      const answer = await Promise.all(versions.map((v) => versionAnswer(v.id)));
      Object.freeze(answer);
      if (answersByVersions.size >= ANSWER_CACHE_SIZE) answersByVersions.delete(answersByVersions.keys().next().value!);
      answersByVersions.set(key, answer);
      return answer;
    },
  };
}

export type ComplaintsService = ReturnType<typeof createComplaintsService>;
