/** The protocol library and the questions asked of it. Queries only. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Passage } from './retrieval.js';

export interface NewVersion {
  id: string;
  agencyId: string;
  sourceName: string;
  title: string;
  sha256: string;
  contentType: string;
  byteSize: number;
  passages: Omit<Passage, 'versionId'>[];
  at: string;
}

export interface QuestionRecord {
  id: string;
  userId: string;
  agencyId: string;
  caseId: string | null;
  chatSessionId: string;
  emtLevel: string | null;
  question: string;
  answerKind: string;
  summarizedResult: string;
  detailedResult: string;
  citations: string;
  askedAt: string;
}

export function createProtocolsRepository(db: Kysely<DB>) {
  return {
    /** The current version of a document of this agency by its file name, if any. */
    async currentVersion(agencyId: string, sourceName: string) {
      return db
        .selectFrom('protocol_documents as d')
        .innerJoin('protocol_versions as v', 'v.id', 'd.current_version_id')
        .select(['d.id as documentId', 'v.id as versionId', 'v.sha256'])
        .where('d.agency_id', '=', agencyId)
        .where('d.source_name', '=', sourceName)
        .executeTakeFirst();
    },

    /**
     * Adds a version and makes it current, retiring the one before (kept for the citations of answers
     * already given). One transaction: a half-imported document never becomes searchable.
     */
    async addVersion(version: NewVersion): Promise<void> {
      await db.transaction().execute(async (trx) => {
        let document = await trx
          .selectFrom('protocol_documents')
          .select(['id', 'current_version_id'])
          .where('agency_id', '=', version.agencyId)
          .where('source_name', '=', version.sourceName)
          .executeTakeFirst();
        if (!document) {
          document = { id: `${version.id}-doc`, current_version_id: null };
          await trx
            .insertInto('protocol_documents')
            .values({
              id: document.id,
              agency_id: version.agencyId,
              source_name: version.sourceName,
              current_version_id: null,
              created_at: version.at,
            })
            .execute();
        }
        if (document.current_version_id) {
          await trx
            .updateTable('protocol_versions')
            .set({ retired_at: version.at })
            .where('id', '=', document.current_version_id)
            .execute();
        }
        await trx
          .insertInto('protocol_versions')
          .values({
            id: version.id,
            document_id: document.id,
            agency_id: version.agencyId,
            title: version.title,
            sha256: version.sha256,
            content_type: version.contentType,
            byte_size: version.byteSize,
            page_count: version.passages.length,
            imported_at: version.at,
            retired_at: null,
          })
          .execute();
        // Large libraries insert in slices: SQLite limits the variables of one statement.
        for (let start = 0; start < version.passages.length; start += 100) {
          await trx
            .insertInto('protocol_passages')
            .values(
              version.passages.slice(start, start + 100).map((passage) => ({
                id: passage.id,
                version_id: version.id,
                agency_id: version.agencyId,
                document_title: passage.documentTitle,
                protocol_number: passage.protocolNumber,
                page: passage.page,
                printed_page: passage.printedPage,
                text: passage.text,
              })),
            )
            .execute();
        }
        await trx
          .updateTable('protocol_documents')
          .set({ current_version_id: version.id })
          .where('id', '=', document.id)
          .execute();
      });
    },

    /** A cheap fingerprint of an agency's library: changes whenever a version is added or retired. */
    async libraryRevision(agencyId: string): Promise<string> {
      const row = await db
        .selectFrom('protocol_versions')
        .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.max('imported_at').as('latest')])
        .where('agency_id', '=', agencyId)
        .executeTakeFirst();
      return `${String(row?.count ?? 0)}:${row?.latest ?? ''}`;
    },

    /** The passages of the agency's current versions: what new questions are answered from. */
    async currentPassages(agencyId: string): Promise<Passage[]> {
      const rows = await db
        .selectFrom('protocol_passages as p')
        .innerJoin('protocol_versions as v', 'v.id', 'p.version_id')
        .select(['p.id', 'p.version_id', 'p.document_title', 'p.protocol_number', 'p.page', 'p.printed_page', 'p.text'])
        .where('v.agency_id', '=', agencyId)
        .where('v.retired_at', 'is', null)
        .orderBy('p.version_id')
        .orderBy('p.page')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        versionId: row.version_id,
        documentTitle: row.document_title,
        protocolNumber: row.protocol_number,
        page: row.page,
        printedPage: row.printed_page,
        text: row.text,
      }));
    },

    /** Any version, current or retired: a citation keeps opening what it cited. */
    findVersion(versionId: string) {
      return db
        .selectFrom('protocol_versions as v')
        .innerJoin('protocol_documents as d', 'd.id', 'v.document_id')
        .select(['v.id', 'v.agency_id', 'v.sha256', 'v.content_type', 'v.title', 'v.page_count', 'd.source_name'])
        .where('v.id', '=', versionId)
        .executeTakeFirst();
    },

    async insertQuestion(record: QuestionRecord): Promise<void> {
      await db
        .insertInto('protocol_questions')
        .values({
          id: record.id,
          user_id: record.userId,
          agency_id: record.agencyId,
          case_id: record.caseId,
          chat_session_id: record.chatSessionId,
          emt_level: record.emtLevel,
          question: record.question,
          answer_kind: record.answerKind,
          summarized_result: record.summarizedResult,
          detailed_result: record.detailedResult,
          citations: record.citations,
          asked_at: record.askedAt,
        })
        .execute();
    },

    findQuestion(id: string) {
      return db.selectFrom('protocol_questions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertFeedback(entry: {
      id: string;
      questionId: string;
      userId: string;
      positive: boolean;
      text: string | null;
      at: string;
    }): Promise<void> {
      await db
        .insertInto('protocol_feedback')
        .values({
          id: entry.id,
          question_id: entry.questionId,
          user_id: entry.userId,
          positive: entry.positive ? 1 : 0,
          text: entry.text,
          created_at: entry.at,
        })
        .execute();
    },

    /** The newest questions of an agency with their latest feedback, for the admin's review. */
    async review(agencyId: string, limit: number) {
      const questions = await db
        .selectFrom('protocol_questions')
        .selectAll()
        .where('agency_id', '=', agencyId)
        .orderBy('asked_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const ids = questions.map((question) => question.id);
      const feedback =
        ids.length === 0
          ? []
          : await db
              .selectFrom('protocol_feedback')
              .selectAll()
              .where('question_id', 'in', ids)
              .orderBy('created_at', 'asc')
              .execute();
      return { questions, feedback };
    },
  };
}

export type ProtocolsRepository = ReturnType<typeof createProtocolsRepository>;
