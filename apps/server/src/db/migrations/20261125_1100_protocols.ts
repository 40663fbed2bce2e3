/**
 * The protocol assistant (issue 13): each agency's protocol library, its documents and their versions,
 * the passages the assistant searches, and every question asked with its answer, citations and feedback.
 * A document's new version retires the old one for new questions; the old version's passages and file
 * stay, so a citation of an answer already given still opens what was cited. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('protocol_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    /** The file's name within the imported library: a later import of the same name is a new version. */
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('current_version_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('protocol_documents_agency_source_key', ['agency_id', 'source_name'])
    .execute();

  await db.schema
    .createTable('protocol_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('protocol_documents.id'))
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
  await db.schema
    .createIndex('protocol_versions_agency_idx')
    .on('protocol_versions')
    .columns(['agency_id', 'retired_at'])
    .execute();

  await db.schema
    .createTable('protocol_passages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('version_id', 'text', (c) => c.notNull().references('protocol_versions.id'))
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('document_title', 'text', (c) => c.notNull())
    .addColumn('protocol_number', 'text')
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('printed_page', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('protocol_passages_version_idx')
    .on('protocol_passages')
    .columns(['version_id'])
    .execute();

  await db.schema
    .createTable('protocol_questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text')
    .addColumn('chat_session_id', 'text', (c) => c.notNull())
    .addColumn('emt_level', 'text')
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('answer_kind', 'text', (c) => c.notNull())
    .addColumn('summarized_result', 'text', (c) => c.notNull())
    .addColumn('detailed_result', 'text', (c) => c.notNull())
    /** JSON: the cited passages ({ ref, passageId, versionId, page, printedPage, documentTitle, protocolNumber }). */
    .addColumn('citations', 'text', (c) => c.notNull())
    .addColumn('asked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('protocol_questions_agency_asked_idx')
    .on('protocol_questions')
    .columns(['agency_id', 'asked_at'])
    .execute();

  await db.schema
    .createTable('protocol_feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('question_id', 'text', (c) => c.notNull().references('protocol_questions.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('positive', 'integer', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('protocol_feedback_question_idx')
    .on('protocol_feedback')
    .columns(['question_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('protocol_feedback').ifExists().execute();
  await db.schema.dropTable('protocol_questions').ifExists().execute();
  await db.schema.dropTable('protocol_passages').ifExists().execute();
  await db.schema.dropTable('protocol_versions').ifExists().execute();
  await db.schema.dropTable('protocol_documents').ifExists().execute();
}
