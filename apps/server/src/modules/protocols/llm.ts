/**
 * The answer with a model: any OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_MODEL,
 * LLM_API_KEY) writes from the retrieved passages alone, citing [n] after each sentence. The model is
 * trusted with wording only: `checkAnswer` refuses an answer with an uncited sentence, a citation to a
 * passage it was not given, or any number (dose, rate, energy, age) not printed in the passages that
 * sentence cites. A refused answer is dropped and the crew gets the extractive one.
 */
import type { Citation } from './answer.js';
import { citationLabel } from './answer.js';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

/** The answer is short: a crew reads it on a phone in a moving ambulance. */
const MAX_TOKENS = 400;

export function buildPrompt(question: string, citations: Citation[], detailed: boolean) {
  const sources = citations
    .map((citation) => `[${citation.ref}] ${citationLabel(citation.passage)}\n${citation.passage.text}`)
    .join('\n\n');
  return [
    {
      role: 'system' as const,
      content:
        'You answer EMS crews from their agency protocol passages only. Use no outside knowledge. ' +
        'End every sentence with the citation of the passage it comes from, like [1]. ' +
        'Copy every dose, number and unit exactly as printed. If the passages do not answer the question, ' +
        "say: This is not covered by your agency's protocols. " +
        (detailed ? 'Answer in up to eight sentences.' : 'Answer in one to three sentences.'),
    },
    { role: 'user' as const, content: `Passages:\n${sources}\n\nQuestion: ${question}` },
  ];
}

export async function askModel(
  settings: LlmSettings,
  messages: ReturnType<typeof buildPrompt>,
): Promise<string | null> {
  const response = await fetch(`${settings.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: settings.model, messages, temperature: 0, max_tokens: MAX_TOKENS, stream: false }),
    signal: AbortSignal.timeout(settings.timeoutMs),
  });
  if (!response.ok) throw new Error(`model answered ${response.status}`);
  const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  return typeof content === 'string' && content.trim() !== '' ? content.trim() : null;
}

/** "0.5 mg" and "0.5mg", "1,000" and "1000", "1:10,000" are the same amount as printed. */
const compact = (text: string) =>
  text
    .toLowerCase()
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/(\d)\s+(?=[a-z%µ])/g, '$1');

const NUMBER_WITH_UNIT =
  /\d+(?:\.\d+)?(?:\s*(?:(?:mg|mcg|gm|g|ml|meq|j|units?|kg)(?:\/(?:kg|ml|dl|min|hr|h)\b)?|%))?/gi;

export type AnswerCheck = { ok: true } | { ok: false; reason: string };

export function checkAnswer(answer: string, citations: Citation[]): AnswerCheck {
  const byRef = new Map(citations.map((citation) => [citation.ref, compact(citation.passage.text)]));
  const sentences = answer
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
  if (sentences.length === 0) return { ok: false, reason: 'empty answer' };
  for (const sentence of sentences) {
    const refs = [...sentence.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    if (refs.length === 0) {
      if (/not covered by your agency's protocols/i.test(sentence) && !/\d/.test(sentence)) continue;
      return { ok: false, reason: `uncited sentence: ${sentence.slice(0, 80)}` };
    }
    const unknown = refs.find((ref) => !byRef.has(ref));
    if (unknown !== undefined) return { ok: false, reason: `cites [${unknown}], which it was not given` };
    const cited = refs.map((ref) => byRef.get(ref)!).join('\n');
    const claims = compact(sentence.replace(/\[\d+\]/g, ' ')).match(NUMBER_WITH_UNIT) ?? [];
    for (const claim of claims) {
      const amount = compact(claim);
      const escaped = amount.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      // With a unit, the printed unit must end there ("0.5mg" is not "0.5mg/kg"); a bare number may be followed by its unit.
      const end = /\d$/.test(amount) ? '(?!\\d|\\.\\d)' : '(?![a-z/])';
      const pattern = new RegExp(`(^|[^\\d.])${escaped}${end}`);
      if (!pattern.test(cited)) return { ok: false, reason: `"${claim}" is not printed in the cited passages` };
    }
  }
  return { ok: true };
}
