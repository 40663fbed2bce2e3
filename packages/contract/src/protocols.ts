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
