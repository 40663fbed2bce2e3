/**
 * Finds the passages of one agency's library that answer a question: BM25 (MiniSearch) over canonical
 * medical terms (medical-terms.ts), the title weighted above the body. The case context (complaint, tags,
 * age, EMT level) joins the query at a lower weight, so it steers without outvoting the question.
 *
 * "Not covered" is decided by how much of the question the best page holds, each word weighted by its
 * rarity in the library (idf): a question about a drug the library never names is declined even though
 * "dose" and "pediatric" are everywhere.
 */
import MiniSearch from 'minisearch';
import { canonicalTerm, searchTerms } from './medical-terms.js';

export interface Passage {
  id: string;
  versionId: string;
  documentTitle: string;
  protocolNumber: string | null;
  page: number;
  printedPage: string;
  text: string;
}

export interface Hit {
  passage: Passage;
  score: number;
  /** Share (0..1) of the question's idf-weighted terms found in this passage. */
  coverage: number;
}

export interface RetrievalQuery {
  question: string;
  /** Words from the case (complaint, tags, "pediatric" for a child, the EMT level). */
  context: string[];
}

/** Below this share of the question found on the best page, the library does not cover it. */
export const MIN_COVERAGE = 0.4;
const CONTEXT_WEIGHT = 0.35;
/** BM25 candidates re-ranked by their best line. */
const RERANK_DEPTH = 15;
/** A pediatric page for a question that is not about a child (and the reverse) weighs this much. */
const OTHER_AGE_GROUP = 0.6;
const PEDIATRIC = canonicalTerm('pediatric')!;
const DOSE_WORDS = new Set(
  ['dose', 'mg', 'mcg', 'energy', 'joules', 'rate', 'max', 'maximum'].map((w) => canonicalTerm(w)!),
);
/** A printed amount: "0.5 mg", "12mg", "2J/kg", "125 mL", "50mEq". */
export const AMOUNT = /\d\s*(?:mg|mcg|gm?|ml|meq|j|units?)\b/i;

/**
 * How well one line answers: the idf of the query terms it holds (context terms at their lower weight),
 * more when the question asks for an amount and the line prints one. Shared by re-ranking and by the
 * extractive answer, so the page chosen and the lines quoted agree.
 */
export function lineScore(line: string, weights: ReadonlyMap<string, number>, doseQuestion: boolean): number {
  let score = 0;
  for (const term of new Set(searchTerms(line))) score += weights.get(term) ?? 0;
  return doseQuestion && AMOUNT.test(line) ? score * 2.5 : score;
}

/** The query's terms with their weights (idf × question or context weight). */
export function termWeights(
  questionTerms: readonly string[],
  contextTerms: readonly string[],
  idf: (term: string) => number,
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of contextTerms) weights.set(term, idf(term) * CONTEXT_WEIGHT);
  for (const term of questionTerms) weights.set(term, idf(term));
  return weights;
}

export const isDoseQuestion = (terms: readonly string[]) => terms.some((term) => DOSE_WORDS.has(term));

const isPediatricPassage = (passage: Passage) =>
  /pediatric/i.test(passage.documentTitle) ||
  /-P$/.test(passage.protocolNumber ?? '') ||
  /pediatric/i.test(passage.text.slice(0, 300));

export interface LibraryIndex {
  readonly size: number;
  search(query: RetrievalQuery, limit?: number): Hit[];
  /** The idf of a canonical term in this library (high for a term it never uses). */
  idf(term: string): number;
  /** The query's weighted terms, as `search` used them (for choosing the lines to quote). */
  weights(query: RetrievalQuery): Map<string, number>;
}

function queryTerms({ question, context }: RetrievalQuery) {
  const questionTerms = [...new Set(searchTerms(question))];
  const contextTerms = [...new Set(context.flatMap((words) => searchTerms(words)))].filter(
    (term) => !questionTerms.includes(term),
  );
  return { questionTerms, contextTerms };
}

export function buildLibraryIndex(passages: Passage[]): LibraryIndex {
  const byId = new Map(passages.map((passage) => [passage.id, passage]));
  const termSets = new Map<string, Set<string>>();
  const documentFrequency = new Map<string, number>();
  for (const passage of passages) {
    const terms = new Set(searchTerms(`${passage.documentTitle} ${passage.text}`));
    termSets.set(passage.id, terms);
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const index = new MiniSearch<Passage & { title: string }>({
    fields: ['title', 'text'],
    idField: 'id',
    storeFields: [],
    // Terms are made canonical once, by searchTerms; MiniSearch must not split or change them again.
    tokenize: (text) => searchTerms(text),
    processTerm: (term) => term,
    searchOptions: { boost: { title: 2 }, tokenize: (text) => text.split(' '), processTerm: (term) => term },
  });
  index.addAll(
    passages.map((passage) => ({
      ...passage,
      title: `${passage.documentTitle} ${passage.protocolNumber ?? ''}`,
    })),
  );

  const idf = (term: string): number => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (passages.length - df + 0.5) / (df + 0.5));
  };

  return {
    size: passages.length,
    idf,
    weights(query) {
      const { questionTerms, contextTerms } = queryTerms(query);
      return termWeights(questionTerms, contextTerms, idf);
    },
    search(query, limit = 5) {
      const { questionTerms, contextTerms } = queryTerms(query);
      const all = [...questionTerms, ...contextTerms];
      if (all.length === 0) return [];
      const contextSet = new Set(contextTerms);
      const results = index.search(all.join(' '), {
        combineWith: 'OR',
        boostTerm: (term) => (contextSet.has(term) ? CONTEXT_WEIGHT : 1),
      });
      // Coverage is judged on the question's own words; a question made of the case alone is covered by
      // whatever the case's words find.
      const judged =
        questionTerms.length > 0 ? questionTerms : contextTerms.filter((term) => documentFrequency.has(term));
      const total = judged.reduce((sum, term) => sum + idf(term), 0);
      const weights = termWeights(questionTerms, contextTerms, idf);
      const doseQuestion = isDoseQuestion(all);
      const forChild = all.includes(PEDIATRIC);

      // BM25 finds the pages; the best single line decides between close ones (a page that prints the
      // drug with its dose beats a page of footnotes that names the drug often), and a page for the
      // other age group steps back.
      const candidates = results.slice(0, RERANK_DEPTH).map((result) => {
        const passage = byId.get(String(result.id))!;
        const best = Math.max(0, ...passage.text.split('\n').map((line) => lineScore(line, weights, doseQuestion)));
        return { passage, bm25: result.score, best };
      });
      const topBm25 = Math.max(1e-9, ...candidates.map((c) => c.bm25));
      const topLine = Math.max(1e-9, ...candidates.map((c) => c.best));
      return candidates
        .map(({ passage, bm25, best }) => {
          const ageFit = isPediatricPassage(passage) === forChild ? 1 : OTHER_AGE_GROUP;
          const terms = termSets.get(passage.id) ?? new Set<string>();
          const found = judged.reduce((sum, term) => sum + (terms.has(term) ? idf(term) : 0), 0);
          return {
            passage,
            score: (bm25 / topBm25 + best / topLine) * ageFit,
            coverage: total > 0 ? found / total : 0,
          };
        })
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}
