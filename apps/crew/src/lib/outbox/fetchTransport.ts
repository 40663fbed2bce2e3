/**
 * The outbox's transport over `fetch`: builds the request (JSON or multipart), adds the session's
 * `Authorization: JWT …` and the `Created-At` of the change (when the crew made it, not when coverage
 * came back — spec §7), and reports what came back. It never throws on an HTTP status: the outbox
 * decides what a status means. No answer at all (offline, DNS, reset) is thrown, as fetch does.
 */
import { authorizationHeader } from '@inbound/contract';
import type { OutboxRequest, OutboxResponse, OutboxTransport } from './types';

export interface FetchTransportOptions {
  /** The stored token, read at each attempt so a fresh sign-in is used at once. */
  getToken: () => string | null;
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function createFetchTransport({
  getToken,
  baseUrl = '',
  fetch: doFetch = (...args) => fetch(...args),
}: FetchTransportOptions): OutboxTransport {
  return async (request: OutboxRequest): Promise<OutboxResponse> => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Created-At': new Date(request.createdAt).toISOString(),
      ...request.headers,
    };
    const token = getToken();
    if (token) headers.Authorization = authorizationHeader(token);

    let body: BodyInit | undefined;
    if (request.multipart) {
      const form = new FormData();
      for (const [name, value] of Object.entries(request.multipart.fields)) form.append(name, value);
      form.append(request.multipart.file.field, request.multipart.file.blob, request.multipart.file.name);
      body = form; // fetch sets the multipart Content-Type with its boundary.
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }

    const response = await doFetch(baseUrl + request.path, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    });
    return {
      status: response.status,
      body: await readBody(response),
      retryAfterMs: retryAfterMs(response.headers.get('Retry-After')),
    };
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Retry-After in seconds or as an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
