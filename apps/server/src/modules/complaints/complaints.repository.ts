/** Complaint sets: each version stored whole, as published. Queries only. */
import type { Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { referenceVersionOf } from '../../db/reference-version.js';

export function createComplaintsRepository(db: Kysely<DB>) {
  // Every complaint-set read lists the set's versions: built and compiled once (db/prepared.ts).
  const versions = (name: string) =>
    db
      .selectFrom('complaint_sets')
      .select(['id', 'name', 'version'])
      .where('name', '=', name)
      .orderBy('version', 'desc');
  const allVersions = prepareQuery(db, versions, 1);
  const newestVersion = prepareQuery(db, (name: string) => versions(name).limit(1), 1);
  return {
    /** The database's reference version (db/reference-version.ts): caches of this data key on it. */
    referenceVersion: referenceVersionOf(db),

    /** Versions of a set, newest first; `limit` 1 gives just the current one. */
    findByName(name: string, limit?: number) {
      let query = db
        .selectFrom('complaint_sets')
        .select(['id', 'name', 'version', 'complaints'])
        .where('name', '=', name)
        .orderBy('version', 'desc');
      if (limit !== undefined) query = query.limit(limit);
      return query.execute();
    },

    /** The versions of a set without their content, newest first (the content is read once per version). */
    versionsByName(name: string, limit?: number) {
      if (limit === undefined) return allVersions(name);
      if (limit === 1) return newestVersion(name);
      return versions(name).limit(limit).execute();
    },

    findById(id: string) {
      return db
        .selectFrom('complaint_sets')
        .select(['id', 'name', 'version', 'complaints'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}

export type ComplaintsRepository = ReturnType<typeof createComplaintsRepository>;
