/** The console's protocol uploads (import jobs) and the library listing. Queries only. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ProtocolImportsTable } from './protocols.schema.js';

export type ImportRow = ProtocolImportsTable;

const ACTIVE = ['queued', 'reading', 'indexing'];

export function createImportsRepository(db: Kysely<DB>) {
  return {
    async insert(row: ImportRow): Promise<void> {
      await db.insertInto('protocol_imports').values(row).execute();
    },

    find(id: string): Promise<ImportRow | undefined> {
      return db.selectFrom('protocol_imports').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Moves a job on; a job already finished (or failed as stale by a reader) is never changed again. */
    async update(id: string, changes: Partial<Omit<ImportRow, 'id' | 'agency_id'>>): Promise<void> {
      await db
        .updateTable('protocol_imports')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'in', ACTIVE)
        .execute();
    },

    /** Jobs of an agency not finished yet: bounds how many files an agency reads at once. */
    async activeCount(agencyId: string): Promise<number> {
      const row = await db
        .selectFrom('protocol_imports')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('agency_id', '=', agencyId)
        .where('status', 'in', ACTIVE)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** Active jobs nobody has moved on since `before`: their process stopped (restart, crash). */
    async failStale(agencyId: string | null, before: string, message: string, at: string): Promise<void> {
      let query = db
        .updateTable('protocol_imports')
        .set({ status: 'failed', message, finished_at: at, updated_at: at })
        .where('status', 'in', ACTIVE)
        .where('updated_at', '<', before);
      if (agencyId) query = query.where('agency_id', '=', agencyId);
      await query.execute();
    },

    recent(agencyId: string, limit: number): Promise<ImportRow[]> {
      return db
        .selectFrom('protocol_imports')
        .selectAll()
        .where('agency_id', '=', agencyId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** The agency's documents at their current version, with how many versions each has had. */
    async documents(agencyId: string) {
      const current = await db
        .selectFrom('protocol_documents as d')
        .innerJoin('protocol_versions as v', 'v.id', 'd.current_version_id')
        .select([
          'd.id',
          'd.source_name',
          'v.id as version_id',
          'v.title',
          'v.page_count',
          'v.byte_size',
          'v.imported_at',
        ])
        .where('d.agency_id', '=', agencyId)
        .orderBy('d.source_name')
        .execute();
      const counts = await db
        .selectFrom('protocol_versions')
        .select((eb) => ['document_id', eb.fn.countAll<string | number>().as('count')])
        .where('agency_id', '=', agencyId)
        .groupBy('document_id')
        .execute();
      const versions = new Map(counts.map((row) => [row.document_id, Number(row.count)]));
      return current.map((row) => ({ ...row, versions: versions.get(row.id) ?? 1 }));
    },

    async agencyExists(agencyId: string): Promise<boolean> {
      return (await db.selectFrom('agencies').select('id').where('id', '=', agencyId).executeTakeFirst()) !== undefined;
    },
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
