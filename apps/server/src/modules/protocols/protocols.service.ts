/**
 * The protocol assistant: a crew asks, the answer comes from the crew's own agency library only.
 * Retrieval (retrieval.ts) picks the pages; an OpenAI-compatible model writes the answer when one is
 * configured and its answer passes the number check (llm.ts), else the best lines are quoted
 * (answer.ts). Every answer is stored with its citations, so the detailed view, the crew's feedback
 * and the admin's review all see exactly what was said and from which page.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type {
  PageLink,
  ProtocolFeedbackBody,
  ProtocolReviewItem,
  QuestionBody,
  QuestionResult,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { parseJson, toJson } from '../../db/json.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import { declinedAnswer, extractiveAnswer, type Citation, type ComposedAnswer } from './answer.js';
import type { CaseContext } from './case-context.js';
import type { ProtocolLibrary } from './library.js';
import { askModel, buildPrompt, checkAnswer, type LlmSettings } from './llm.js';
import type { ProtocolsRepository } from './protocols.repository.js';
import { MIN_COVERAGE } from './retrieval.js';

/** How long a cited page's link opens without asking again. */
const LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const REVIEW_LIMIT = 200;

interface StoredCitation {
  ref: number;
  passageId: string;
  versionId: string;
  page: number;
  printedPage: string;
  documentTitle: string;
  protocolNumber: string | null;
}

export interface Answered {
  result: QuestionResult;
  /** The text to stream: the summary or the detailed answer, as asked. */
  text: string;
}

export interface ProtocolsDeps {
  repo: ProtocolsRepository;
  library: ProtocolLibrary;
  clock: Clock;
  secret: string;
  llm: LlmSettings | null;
  /** The case's complaint, tags and age, for a crew with access to it. */
  caseContext: (principal: Principal, caseId: string) => Promise<CaseContext>;
  /** Whether the user (still) belongs to the agency: checked when a cited page is opened. */
  isAgencyMember: (userId: string, agencyId: string) => Promise<boolean>;
  logWarning: (message: string, detail: Record<string, unknown>) => void;
}

export function createProtocolsService(deps: ProtocolsDeps) {
  const { repo, library, clock } = deps;

  const sign = (versionId: string, userId: string, exp: number) =>
    createHmac('sha256', deps.secret).update(`protocol-file\n${versionId}\n${userId}\n${exp}`).digest('base64url');

  function pageLinks(citations: StoredCitation[], userId: string): PageLink[] {
    const exp = clock.now().getTime() + LINK_TTL_MS;
    return citations.map((citation) => ({
      ref: citation.ref,
      documentTitle: citation.documentTitle,
      protocolNumber: citation.protocolNumber,
      printedPage: citation.printedPage,
      page: citation.page,
      url:
        `/v4/protocols/documents/${encodeURIComponent(citation.versionId)}/file` +
        `?u=${encodeURIComponent(userId)}&exp=${exp}&sig=${sign(citation.versionId, userId, exp)}#page=${citation.page}`,
    }));
  }

  const stored = (citations: Citation[]): StoredCitation[] =>
    citations.map(({ ref, passage }) => ({
      ref,
      passageId: passage.id,
      versionId: passage.versionId,
      page: passage.page,
      printedPage: passage.printedPage,
      documentTitle: passage.documentTitle,
      protocolNumber: passage.protocolNumber,
    }));

  async function modelAnswer(question: string, extractive: ComposedAnswer): Promise<ComposedAnswer | null> {
    if (!deps.llm) return null;
    try {
      const [summary, detailed] = await Promise.all([
        askModel(deps.llm, buildPrompt(question, extractive.citations, false)),
        askModel(deps.llm, buildPrompt(question, extractive.citations, true)),
      ]);
      if (summary === null || detailed === null) return null;
      for (const text of [summary, detailed]) {
        const check = checkAnswer(text, extractive.citations);
        if (!check.ok) {
          deps.logWarning('model answer dropped', { reason: check.reason });
          return null;
        }
      }
      return { summary, detailed, citations: extractive.citations };
    } catch (error) {
      deps.logWarning('model not reached', { error: (error as Error).message });
      return null;
    }
  }

  return {
    async ask(principal: Principal, body: QuestionBody): Promise<Answered> {
      const agencyId = body.organization.id;
      if (!principal.teamIds.includes(agencyId)) throw forbidden('You are not a member of this agency.');
      const chatSessionID = body.chatSessionID ?? randomUUID();

      // The same questionUuid again (the "Show details" fetch) answers from what was stored.
      const earlier = await repo.findQuestion(body.questionUuid);
      if (earlier) {
        if (earlier.user_id !== principal.userId) throw conflict('questionUuid is already used.');
        const citations = parseJson<StoredCitation[]>(earlier.citations, []);
        const result: QuestionResult = {
          questionUuid: earlier.id,
          chatSessionID: earlier.chat_session_id,
          summarizedResult: earlier.summarized_result,
          detailedResult: earlier.detailed_result,
          pageLinks: pageLinks(citations, principal.userId),
          answerKind: earlier.answer_kind as QuestionResult['answerKind'],
        };
        return { result, text: body.responseType === 'detailed' ? result.detailedResult : result.summarizedResult };
      }

      const question = body.question.trim();
      const caseContext = body.twiageCaseId ? await deps.caseContext(principal, body.twiageCaseId) : null;
      if (question === '' && !caseContext) throw badRequest('question is required outside a case.');
      const context = [...(caseContext?.terms ?? []), ...(body.emtLevel ? [body.emtLevel] : [])];
      const asked = question === '' ? (caseContext?.description ?? '') : question;

      const index = await library.index(agencyId);
      const query = { question, context };
      const hits = index.search(query, 8);
      const covered = hits.length > 0 && hits[0]!.coverage >= MIN_COVERAGE;
      let answer: ComposedAnswer;
      let kind: QuestionResult['answerKind'];
      if (!covered) {
        answer = declinedAnswer(hits);
        kind = 'declined';
      } else {
        const extractive = extractiveAnswer(hits, index.weights(query));
        const written = await modelAnswer(asked, extractive);
        answer = written ?? extractive;
        kind = written ? 'llm' : 'extractive';
      }
      const citations = stored(answer.citations);
      await repo.insertQuestion({
        id: body.questionUuid,
        userId: principal.userId,
        agencyId,
        caseId: body.twiageCaseId ?? null,
        chatSessionId: chatSessionID,
        emtLevel: body.emtLevel ?? null,
        question: asked,
        answerKind: kind,
        summarizedResult: answer.summary,
        detailedResult: answer.detailed,
        citations: toJson(citations),
        askedAt: clock.now().toISOString(),
      });
      const result: QuestionResult = {
        questionUuid: body.questionUuid,
        chatSessionID,
        summarizedResult: answer.summary,
        detailedResult: answer.detailed,
        pageLinks: pageLinks(citations, principal.userId),
        answerKind: kind,
      };
      return { result, text: body.responseType === 'detailed' ? answer.detailed : answer.summary };
    },

    async feedback(principal: Principal, body: ProtocolFeedbackBody): Promise<{ id: string }> {
      const question = await repo.findQuestion(body.questionUuid);
      if (!question || question.user_id !== principal.userId) throw notFound('Question');
      const id = randomUUID();
      await repo.insertFeedback({
        id,
        questionId: question.id,
        userId: principal.userId,
        positive: body.feedback,
        text: body.feedbackText?.trim() || null,
        at: clock.now().toISOString(),
      });
      return { id };
    },

    /** The agency's questions with answers, citations and feedback: for organisation admins and the agency's own. */
    async review(principal: Principal, agencyId: string): Promise<{ items: ProtocolReviewItem[] }> {
      if (!isOrgAdmin(principal) && !principal.administers.includes(agencyId)) throw forbidden();
      const { questions, feedback } = await repo.review(agencyId, REVIEW_LIMIT);
      const latest = new Map(feedback.map((entry) => [entry.question_id, entry]));
      return {
        items: questions.map((question) => {
          const said = latest.get(question.id);
          return {
            questionUuid: question.id,
            askedAt: question.asked_at,
            question: question.question,
            answer: question.detailed_result,
            answerKind: question.answer_kind as ProtocolReviewItem['answerKind'],
            pageLinks: pageLinks(parseJson<StoredCitation[]>(question.citations, []), principal.userId),
            feedback: said ? { positive: said.positive === 1, text: said.text, at: said.created_at } : null,
          };
        }),
      };
    },

    /** A cited document for a signed link: the signature, its age and the user's membership are checked. */
    async openDocument(versionId: string, link: { u: string; exp: number; sig: string }) {
      const expected = Buffer.from(sign(versionId, link.u, link.exp));
      const given = Buffer.from(link.sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw forbidden();
      if (link.exp < clock.now().getTime()) throw forbidden('This link has expired. Ask the question again.');
      const version = await repo.findVersion(versionId);
      if (!version) throw notFound('Document');
      if (!(await deps.isAgencyMember(link.u, version.agency_id))) throw forbidden();
      return {
        bytes: await library.readFile(version.sha256),
        contentType: version.content_type,
        name: version.source_name,
      };
    },
  };
}

export type ProtocolsService = ReturnType<typeof createProtocolsService>;
