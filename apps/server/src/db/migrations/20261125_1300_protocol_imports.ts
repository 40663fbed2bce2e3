/**
 * Protocol files uploaded in the console (issue 13): each upload is an import job read in the background,
 * its progress (pages read of the file's pages) and its outcome or error kept here, so any process of a
 * WORKERS=N server answers the console's polling the same. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('protocol_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    /** queued → reading → indexing → done | failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pages_done', 'integer', (c) => c.notNull())
    .addColumn('pages_total', 'integer')
    /** added | updated | unchanged, once done. */
    .addColumn('outcome', 'text')
    .addColumn('title', 'text')
    /** Why it failed, in words an administrator can act on. */
    .addColumn('message', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('protocol_imports_agency_created_idx')
    .on('protocol_imports')
    .columns(['agency_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('protocol_imports').ifExists().execute();
}
