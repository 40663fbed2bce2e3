/**
 * The answer without a model: the best lines of the best pages, quoted as printed, each with its page.
 * Nothing is rephrased, so a dose in the answer is the document's dose. A line is chosen by the rare
 * question words it holds; a dose often continues on the next line, so the line after a chosen one joins it.
 */
import { isDoseQuestion, lineScore, type Hit, type Passage } from './retrieval.js';

export interface Citation {
  ref: number;
  passage: Passage;
}

export interface ComposedAnswer {
  summary: string;
  detailed: string;
  citations: Citation[];
}

const SUMMARY_LINES = 3;
const DETAILED_PASSAGES = 3;
const DETAILED_LINES = 8;
/** Lines every page repeats (disclaimers, headers) say nothing about the question. */
const BOILERPLATE =
  /DISCLAIMER|PRINTED COPIES|ELECTRONIC COPY|DEPARTMENT OF HEALTH SERVICES|COUNTY OF LOS ANGELES|^REVISED:|^Date:|^Page \d|^#{1,6}\s|^Protocol(?: number)?:/i;

export function citationLabel(passage: Passage): string {
  const number = passage.protocolNumber ? ` (${passage.protocolNumber})` : '';
  return `${passage.documentTitle}${number}, ${passage.printedPage}`;
}

/** The passage's lines that best answer the query (weights from `termWeights`), in the document's order. */
export function bestLines(passage: Passage, weights: ReadonlyMap<string, number>, count: number): string[] {
  const lines = passage.text.split('\n').filter((line) => line.trim() !== '' && !BOILERPLATE.test(line));
  const doseQuestion = isDoseQuestion([...weights.keys()]);
  const scored = lines.map((line, index) => ({ index, score: lineScore(line, weights, doseQuestion) }));
  const chosen = new Set<number>();
  for (const { index, score } of [...scored].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (score <= 0 || chosen.size >= count) break;
    chosen.add(index);
    if (index + 1 < lines.length && chosen.size < count + 1) chosen.add(index + 1);
  }
  if (chosen.size === 0) lines.slice(0, count).forEach((_, index) => chosen.add(index));
  return [...new Set([...chosen].sort((a, b) => a - b).map((index) => lines[index]!.trim()))];
}

export function extractiveAnswer(hits: Hit[], weights: ReadonlyMap<string, number>): ComposedAnswer {
  const pages = dedupePages(hits).slice(0, DETAILED_PASSAGES);
  const citations = pages.map((hit, index) => ({ ref: index + 1, passage: hit.passage }));
  const [first] = citations;
  if (!first) throw new Error('extractiveAnswer needs at least one hit');
  const quote = (citation: Citation, count: number) =>
    bestLines(citation.passage, weights, count)
      .map((line) => `> ${line}`)
      .join('\n');
  const summary = `From ${citationLabel(first.passage)} [1]:\n${quote(first, SUMMARY_LINES)}`;
  const detailed = citations
    .map((citation) => `[${citation.ref}] ${citationLabel(citation.passage)}:\n${quote(citation, DETAILED_LINES)}`)
    .join('\n\n');
  return { summary, detailed, citations };
}

export const NOT_COVERED = "This is not covered by your agency's protocols.";

export function declinedAnswer(closest: Hit[]): ComposedAnswer {
  const pages = dedupeDocuments(closest).slice(0, 3);
  const citations = pages.map((hit, index) => ({ ref: index + 1, passage: hit.passage }));
  const titles = citations.map((citation) => `[${citation.ref}] ${citationLabel(citation.passage)}`);
  const text = titles.length > 0 ? `${NOT_COVERED}\nThe closest protocols are:\n${titles.join('\n')}` : NOT_COVERED;
  return { summary: text, detailed: text, citations };
}

function dedupePages(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = `${hit.passage.versionId}:${hit.passage.page}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupeDocuments(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = `${hit.passage.documentTitle}:${hit.passage.protocolNumber ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
