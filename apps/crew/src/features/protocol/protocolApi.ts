/**
 * The assistant's calls (spec §7): `POST /questions/` streamed with header `streaming: true` — the
 * answer text arrives in pieces, then '+++' and the JSON (pageLinks, questionUuid, detailedResult,
 * summarizedResult, chatSessionID) — and `POST /feedback/`. A non-OK reply raises an HTTP error (§8).
 */
import {
  PROTOCOL_STREAM_SEPARATOR,
  QuestionResult,
  authorizationHeader,
  routes,
  type QuestionBody,
} from '@inbound/contract';
import { ApiError } from '../../lib/api';
import { api } from '../../lib/apiClient';
import { useSession } from '../../lib/session';
import { reportUnauthorized } from '../../lib/unauthorized';

export async function askStreaming(
  body: QuestionBody,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<QuestionResult> {
  const token = useSession.getState().jwt?.token;
  let response: Response;
  try {
    response = await fetch(`${routes.question.path}/`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Created-At': new Date().toISOString(),
        streaming: 'true',
        ...(token ? { Authorization: authorizationHeader(token) } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('noResponse');
  }
  if (!response.ok) {
    if (response.status === 401) reportUnauthorized();
    throw new ApiError('http', response.status, null);
  }
  if (!response.body) throw new ApiError('invalidResponse', response.status);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let received = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value;
    const at = received.indexOf(`${PROTOCOL_STREAM_SEPARATOR}{`);
    onText(at === -1 ? received : received.slice(0, at));
  }
  const at = received.indexOf(`${PROTOCOL_STREAM_SEPARATOR}{`);
  const parsed =
    at === -1 ? null : QuestionResult.safeParse(safeJson(received.slice(at + PROTOCOL_STREAM_SEPARATOR.length)));
  if (!parsed?.success) throw new ApiError('invalidResponse', response.status);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The detailed answer of a question already asked (the server answers it from what it stored). */
export function fetchDetailed(body: QuestionBody): Promise<QuestionResult> {
  return api.call('question', { body: { ...body, responseType: 'detailed' } });
}

export function sendProtocolFeedback(questionUuid: string, positive: boolean, text: string | null) {
  return api.call('protocolFeedback', {
    body: { questionUuid, feedback: positive, ...(text ? { feedbackText: text } : {}) },
  });
}

/** The answer as plain words: quote marks and citation numbers dropped (for speech and the case chat). */
export function plainAnswer(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^>\s?/, '')
        .replace(/\[\d+\]/g, '')
        .trim(),
    )
    .filter((line) => line !== '')
    .join(' ');
}
