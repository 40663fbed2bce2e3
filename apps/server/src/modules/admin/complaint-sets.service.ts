/**
 * Complaint sets as JSON files: export the newest version of a set, import a file as a new set or as
 * the new version of the set of that name. Organisation admins only.
 *
 * The file is checked against the contract's `ComplaintSetImport` — the crew app's own `Complaint`
 * schema plus uniqueness rules — and every problem is named by its entry, as in the file
 * (`complaints[3].sections[1].tags[0].id: duplicate id "t-lkw"`). An import is one insert of a whole
 * version, with its audit entry, in one transaction: there is no half-written set. Versions are never
 * changed or deleted (cases started on an older version are checked against it), so "replace" is a new
 * version: crews get it from GET /v4/complaintSets at their next read — the complaints module looks the
 * versions up on every request and caches only immutable version contents, so nothing goes stale.
 */
import { randomUUID } from 'node:crypto';
import {
  ComplaintSetImport,
  describeImportIssues,
  type AdminComplaintSetSummary,
  type Complaint,
  type ComplaintSetExport,
  type ComplaintSetImportResponse,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { parseJson, toJson } from '../../db/json.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import { requireOrgAdmin } from './agencies.service.js';
import type { Transactional } from '../../db/transactional.js';
import { recordAdminChange } from './audit.js';
import type { AdminComplaintSetsRepository } from './complaint-sets.repository.js';

export interface AdminComplaintSetsServiceDeps {
  /** Built once by the composition root: reads, and the transaction each change commits in. */
  repo: Transactional<AdminComplaintSetsRepository>;
  clock: Clock;
  newId?: () => string;
}

/** A unique-key failure from either database: another import took this version number first. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23505' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed'));
}

export function createAdminComplaintSetsService({
  repo: store,
  clock,
  newId = randomUUID,
}: AdminComplaintSetsServiceDeps) {
  const reader = store.read;

  return {
    async list(principal: Principal): Promise<AdminComplaintSetSummary[]> {
      requireOrgAdmin(principal);
      const [sets, agencies] = await Promise.all([reader.newestVersions(), reader.agenciesUsing()]);
      return sets.map((set) => ({
        id: set.id,
        name: set.name,
        version: set.version,
        complaintCount: parseJson<Complaint[]>(set.complaints, []).length,
        createdAt: set.created_at,
        agencies: agencies.filter((a) => a.complaint_set_name === set.name).map((a) => ({ id: a.id, name: a.name })),
      }));
    },

    async exportSet(principal: Principal, name: string): Promise<ComplaintSetExport> {
      requireOrgAdmin(principal);
      const set = await reader.newestByName(name);
      if (!set) throw notFound('Complaint set');
      return { name: set.name, version: set.version, complaints: parseJson<Complaint[]>(set.complaints, []) };
    },

    async importSet(principal: Principal, body: unknown): Promise<ComplaintSetImportResponse> {
      requireOrgAdmin(principal);
      if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw badRequest('The file must be a complaint set: an object with "name" and "complaints".');
      }
      const parsed = ComplaintSetImport.safeParse(body);
      if (!parsed.success) throw badRequest(describeImportIssues(parsed.error.issues).join('; '));
      const file = parsed.data;
      try {
        return await store.transaction(async (repo, trx) => {
          const current = await repo.newestByName(file.name);
          const row = {
            id: `cset-${newId()}`,
            name: file.name,
            version: (current?.version ?? 0) + 1,
            complaints: toJson(file.complaints),
            created_at: clock.now().toISOString(),
          };
          await repo.insert(row);
          const answer: ComplaintSetImportResponse = {
            id: row.id,
            name: row.name,
            version: row.version,
            complaintCount: file.complaints.length,
            replaced: current !== null,
          };
          const names = (complaints: readonly Complaint[]) => complaints.map((c) => c.name);
          await recordAdminChange(trx, {
            actor: principal,
            action: 'complaintSet.import',
            entityType: 'complaintSet',
            entityId: row.name,
            summary: current
              ? `Imported ${row.name} version ${row.version} (${answer.complaintCount} complaints), replacing version ${current.version}`
              : `Imported new complaint set ${row.name} (${answer.complaintCount} complaints)`,
            // The complaint names say what changed; the whole file would bloat the log.
            before: current
              ? {
                  id: current.id,
                  version: current.version,
                  complaints: names(parseJson<Complaint[]>(current.complaints, [])),
                }
              : null,
            after: { id: row.id, version: row.version, complaints: names(file.complaints) },
            at: clock.now(),
          });
          return answer;
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw conflict(
            `Another import of "${file.name}" finished first; import the file again to make it the newest.`,
          );
        }
        throw error;
      }
    },
  };
}

export type AdminComplaintSetsService = ReturnType<typeof createAdminComplaintSetsService>;
