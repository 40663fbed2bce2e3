/**
 * Media of a case: one row per upload, written in the same transaction as its case event. The bytes
 * live in the media store (DATA_DIR/media or a bucket) under `original_key` (as sent) and, once
 * converted, `output_key` (what the hospital plays). A row still `processing` after a restart is
 * converted again: the job queue re-reads them at start.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('case_media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('original_content_type', 'text', (c) => c.notNull())
    .addColumn('original_size', 'integer', (c) => c.notNull())
    .addColumn('output_key', 'text')
    .addColumn('output_content_type', 'text')
    .addColumn('output_size', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('failure', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('converted_at', 'text')
    .execute();
  await db.schema.createIndex('case_media_case_idx').on('case_media').columns(['case_id', 'created_at']).execute();
  await db.schema.createIndex('case_media_status_idx').on('case_media').column('status').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('case_media').execute();
}
