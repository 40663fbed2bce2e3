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
  /**
   * Multipart uploads go over XMLHttpRequest, the only browser API that reports upload progress (fetch
   * has none). Default: XHR when the browser has it and no `fetch` was injected; `null` forces fetch.
   */
  xhr?: (() => XMLHttpRequest) | null;
}

export function createFetchTransport({
  getToken,
  baseUrl = '',
  fetch: injectedFetch,
  xhr,
}: FetchTransportOptions): OutboxTransport {
  const doFetch: typeof fetch = injectedFetch ?? ((...args) => fetch(...args));
  const newXhr =
    xhr !== undefined
      ? xhr
      : !injectedFetch && typeof XMLHttpRequest !== 'undefined'
        ? () => new XMLHttpRequest()
        : null;
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
      if (newXhr) return sendWithXhr(newXhr(), baseUrl + request.path, request, headers, form);
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

/**
 * A multipart upload over XHR, reporting upload progress. Same contract as the fetch path: an HTTP
 * status is returned, no answer at all (offline, reset, abort) is thrown.
 */
function sendWithXhr(
  xhr: XMLHttpRequest,
  url: string,
  request: OutboxRequest,
  headers: Record<string, string>,
  form: FormData,
): Promise<OutboxResponse> {
  return new Promise<OutboxResponse>((resolve, reject) => {
    if (request.signal.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    const onAbort = () => xhr.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => request.signal.removeEventListener('abort', onAbort);
    xhr.open(request.method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    const total = request.multipart?.file.blob.size ?? 0;
    xhr.upload.addEventListener('progress', (event) => {
      // The multipart envelope is a few hundred bytes more than the file: report in the file's bytes.
      const size = event.lengthComputable && event.total > 0 ? event.total : total;
      request.onProgress?.(Math.round((event.loaded / size) * total), total);
    });
    xhr.addEventListener('load', () => {
      done();
      resolve({
        status: xhr.status,
        body: parseBody(xhr.responseText),
        retryAfterMs: retryAfterMs(xhr.getResponseHeader('Retry-After')),
      });
    });
    const fail = (what: string) => () => {
      done();
      reject(what === 'abort' ? new DOMException('The upload was aborted.', 'AbortError') : new TypeError(what));
    };
    xhr.addEventListener('error', fail('Failed to upload'));
    xhr.addEventListener('timeout', fail('The upload timed out'));
    xhr.addEventListener('abort', fail('abort'));
    xhr.send(form);
  });
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
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
