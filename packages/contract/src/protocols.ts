/**
 * The AI protocol assistant (spec §3 "Protocol exchange", §7 `POST /questions/` and `POST /feedback/`):
 * answers come only from the asking crew's agency library, each claim cited to a printed page.
 */
import { z } from 'zod';
import { Id } from './entities.js';

/** A question longer than this is refused: nobody types more on a tablet, and it bounds retrieval work. */
export const PROTOCOL_QUESTION_MAX_LENGTH = 1_000;
export const PROTOCOL_FEEDBACK_MAX_LENGTH = 2_000;
/** The separator between the streamed answer text and its JSON tail (§7). */
export const PROTOCOL_STREAM_SEPARATOR = '+++';
/** §9: the answer is read aloud at this rate, in this language. */
export const PROTOCOL_SPEECH = { rate: 1.5, lang: 'en-US' } as const;

export const QuestionBody = z.object({
  question: z.string().max(PROTOCOL_QUESTION_MAX_LENGTH).default(''),
  responseType: z.enum(['summary', 'detailed']),
  questionUuid: z.uuid('questionUuid must be a UUID'),
  organization: z.object({ id: Id, type: z.literal('emsAgency') }),
  emtLevel: z.string().max(64).nullish(),
  chatSessionID: z.string().max(64).nullish(),
  twiageCaseId: z.string().max(64).nullish(),
});
export type QuestionBody = z.infer<typeof QuestionBody>;

/** One cited page: where the claim is printed, and a link that opens the document there. */
export const PageLink = z.object({
  /** The citation number used in the answer text ([1], [2] …). */
  ref: z.number().int().min(1),
  documentTitle: z.string(),
  protocolNumber: z.string().nullable(),
  /** As printed ("Page 2 of 3"), or the section for documents without pages. */
  printedPage: z.string(),
  /** The page of the file (1-based) the link opens. */
  page: z.number().int().min(1),
  url: z.string(),
});
export type PageLink = z.infer<typeof PageLink>;

export const QuestionResult = z.object({
  questionUuid: z.string(),
  chatSessionID: z.string(),
  summarizedResult: z.string(),
  detailedResult: z.string(),
  pageLinks: z.array(PageLink),
  /** extractive: quoted passages; llm: a written answer whose every number was found in its citations; declined: not covered. */
  answerKind: z.enum(['extractive', 'llm', 'declined']),
});
export type QuestionResult = z.infer<typeof QuestionResult>;

export const ProtocolFeedbackBody = z
  .object({
    questionUuid: z.uuid('questionUuid must be a UUID'),
    feedback: z.boolean(),
    feedbackText: z.string().trim().max(PROTOCOL_FEEDBACK_MAX_LENGTH).nullish(),
  })
  .refine((body) => body.feedback || (body.feedbackText ?? '') !== '', {
    message: 'feedbackText is required for negative feedback',
    path: ['feedbackText'],
  });
export type ProtocolFeedbackBody = z.infer<typeof ProtocolFeedbackBody>;
export const ProtocolFeedbackResponse = z.object({ id: Id });

/** The organisation admin's review list: what crews asked, what they got, and what they said of it. */
export const ProtocolReviewQuery = z.object({ agencyId: Id });
export const ProtocolReviewItem = z.object({
  questionUuid: z.string(),
  askedAt: z.string(),
  question: z.string(),
  answer: z.string(),
  answerKind: z.enum(['extractive', 'llm', 'declined']),
  pageLinks: z.array(PageLink),
  feedback: z.object({ positive: z.boolean(), text: z.string().nullable(), at: z.string() }).nullable(),
});
export const ProtocolReviewResponse = z.object({ items: z.array(ProtocolReviewItem) });
export type ProtocolReviewItem = z.infer<typeof ProtocolReviewItem>;

export const ProtocolDocumentParams = z.object({ versionId: Id });
/** A cited page's signed link: who it was given to, until when, and the server's signature. */
export const ProtocolDocumentQuery = z.object({ u: Id, exp: z.coerce.number().int(), sig: z.string().min(1).max(128) });

// ---- the library as the console's administration sees it, and files uploaded into it ---------------

/** A protocol file uploaded in the console larger than this is refused (413): packets are a few MB. */
export const PROTOCOL_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** What an upload may be, by its name's ending and the type the browser sends. */
export const PROTOCOL_UPLOAD_TYPES = {
  pdf: 'application/pdf',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
} as const;
/** An agency imports at most this many files at once; the next upload waits for one to finish (429). */
export const PROTOCOL_IMPORTS_IN_FLIGHT_MAX = 3;

export const ProtocolLibraryQuery = z.object({ agencyId: Id });
export const ProtocolUploadQuery = z.object({
  agencyId: Id,
  /** The file's name: it names the document in the library, so a later upload of it is a new version. */
  fileName: z
    .string()
    .trim()
    .min(1, 'fileName is required')
    .max(200, 'fileName is longer than 200 characters')
    .refine(
      (name) => !/[/\\]/.test(name) && ![...name].some((char) => char.charCodeAt(0) < 0x20),
      'fileName must be a plain file name',
    )
    .refine((name) => /\.(pdf|md|markdown|html?)$/i.test(name), 'Only PDF, Markdown and HTML files can be imported.'),
});
export type ProtocolUploadQuery = z.infer<typeof ProtocolUploadQuery>;
export const ProtocolImportParams = z.object({ id: Id });

export const ProtocolImportStatus = z.enum(['queued', 'reading', 'indexing', 'done', 'failed']);
export type ProtocolImportStatus = z.infer<typeof ProtocolImportStatus>;
export const ProtocolImport = z.object({
  id: z.string(),
  agencyId: z.string(),
  fileName: z.string(),
  byteSize: z.number().int(),
  status: ProtocolImportStatus,
  /** Pages (sections for Markdown/HTML) read so far, of pagesTotal once the file's pages are known. */
  pagesDone: z.number().int(),
  pagesTotal: z.number().int().nullable(),
  /** Once done: a new document, a new version of one, or the same bytes as the current version. */
  outcome: z.enum(['added', 'updated', 'unchanged']).nullable(),
  title: z.string().nullable(),
  /** Why it failed. */
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ProtocolImport = z.infer<typeof ProtocolImport>;

export const ProtocolLibraryDocument = z.object({
  fileName: z.string(),
  title: z.string(),
  versionId: z.string(),
  pages: z.number().int(),
  byteSize: z.number().int(),
  importedAt: z.string(),
  /** How many versions were imported, this one included. */
  versions: z.number().int(),
});
export type ProtocolLibraryDocument = z.infer<typeof ProtocolLibraryDocument>;
export const ProtocolLibraryResponse = z.object({
  documents: z.array(ProtocolLibraryDocument),
  /** The agency's recent uploads, newest first. */
  imports: z.array(ProtocolImport),
});
export type ProtocolLibraryResponse = z.infer<typeof ProtocolLibraryResponse>;
