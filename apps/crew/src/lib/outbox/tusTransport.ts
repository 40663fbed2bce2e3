/**
 * Large media go resumably (tus 1.0, `MEDIA_TUS_PATH`, docs/media.md): a video that breaks at 90 % over
 * a cellular link resumes from the server's offset instead of starting again from zero. Everything
 * else — JSON changes and media up to `MEDIA_RESUMABLE_ABOVE_BYTES` — goes to the `fallback` transport
 * (multipart, `createFetchTransport`).
 *
 * The outbox's guarantees hold unchanged, because this is only a transport: one call is one attempt,
 * and it answers the server's status (2xx delivered, 401 hold, other 4xx rejected, 5xx / no answer
 * retried every 2 s by the outbox). tus-js-client's own retries are off (`retryDelays: null`).
 *
 * Resuming: the upload's URL is remembered under a fingerprint made of the outbox's idempotency key
 * (`urlStorage`, by default tus-js-client's `localStorage` one — the URL and the metadata below, no
 * patient data). The next attempt — after a network cut, a timeout, a reload or a browser restart —
 * asks the server for the offset (HEAD) and sends only the rest. If the server no longer knows the
 * upload (finished, expired after 24 h), a new one is made; the Idempotency-Key (in the metadata) makes
 * the server answer a file it already recorded with its first answer, and record nothing twice.
 */
import {
  authorizationHeader,
  MEDIA_RESUMABLE_ABOVE_BYTES,
  MEDIA_TUS_METADATA,
  MEDIA_TUS_PATH,
} from '@inbound/contract';
import { DetailedError, Upload, type HttpResponse, type HttpStack, type UrlStorage } from 'tus-js-client';
import type { OutboxRequest, OutboxResponse, OutboxTransport } from './types';

export interface TusTransportOptions {
  /** The stored token, read at each attempt. */
  getToken: () => string | null;
  /** Everything that does not go over tus. */
  fallback: OutboxTransport;
  /** The server's origin and prefix, as for the fetch transport ('' = this page's origin). */
  baseUrl?: string;
  /** Files larger than this go over tus (default `MEDIA_RESUMABLE_ABOVE_BYTES`). */
  resumableAboveBytes?: number;
  /** Bytes per PATCH (default 4 MB): what a cut can cost at most, whatever the server keeps of a cut PATCH. */
  chunkSize?: number;
  /** Tests: tus-js-client's HTTP layer (default XHR in the browser). */
  httpStack?: HttpStack;
  /** Where upload URLs are remembered (default `localStorage`). */
  urlStorage?: UrlStorage;
  /** Tests: how the file is read in slices (default tus-js-client's Blob reader). */
  fileReader?: TusFileReader;
}

type TusFileReader = NonNullable<ConstructorParameters<typeof Upload>[1]['fileReader']>;

export const TUS_CHUNK_BYTES = 4 * 1_048_576;

/** The fingerprint an upload's URL is stored under: one per outbox change. */
export const tusFingerprint = (idempotencyKey: string): string => `inbound-media:${idempotencyKey}`;

/** Statuses the tus protocol uses for "not now" (offset conflict, locked): the next attempt re-reads the offset. */
const TUS_TRANSIENT = new Set([409, 423, 460]);

export function createTusTransport(options: TusTransportOptions): OutboxTransport {
  const { getToken, fallback, baseUrl = '', resumableAboveBytes = MEDIA_RESUMABLE_ABOVE_BYTES } = options;
  const chunkSize = options.chunkSize ?? TUS_CHUNK_BYTES;

  const endpoint = (): string => {
    const raw = baseUrl + MEDIA_TUS_PATH;
    if (typeof location !== 'undefined' && location.href.startsWith('http')) return new URL(raw, location.href).href;
    return raw;
  };

  return (request: OutboxRequest): Promise<OutboxResponse> => {
    const file = request.multipart?.file.blob;
    if (!request.multipart || !file || file.size <= resumableAboveBytes) return fallback(request);
    return sendResumable(request, file);
  };

  function sendResumable(request: OutboxRequest, file: Blob): Promise<OutboxResponse> {
    const fingerprint = tusFingerprint(request.idempotencyKey);
    const headers: Record<string, string> = {
      'Created-At': new Date(request.createdAt).toISOString(),
      ...request.headers,
    };
    const token = getToken();
    if (token) headers.Authorization = authorizationHeader(token);

    return new Promise<OutboxResponse>((resolve, reject) => {
      if (request.signal.aborted) {
        reject(new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        request.signal.removeEventListener('abort', onAbort);
        outcome();
      };
      // A HEAD refused with 401 (the token expired while the upload waited) must not make tus-js-client
      // forget the upload and start a new one, as it does on any 4xx HEAD: the outbox holds on the 401,
      // and after the crew signs in again the upload resumes where it was.
      let headUnauthorized: HttpResponse | null = null;
      const upload = new Upload(file, {
        endpoint: endpoint(),
        uploadSize: file.size,
        chunkSize,
        metadata: {
          ...request.multipart?.fields,
          [MEDIA_TUS_METADATA.caseId]: request.caseId,
          [MEDIA_TUS_METADATA.idempotencyKey]: request.idempotencyKey,
        },
        headers,
        fingerprint: () => Promise.resolve(fingerprint),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        retryDelays: null,
        ...(options.httpStack ? { httpStack: options.httpStack } : {}),
        ...(options.urlStorage ? { urlStorage: options.urlStorage } : {}),
        ...(options.fileReader ? { fileReader: options.fileReader } : {}),
        onAfterResponse: (req, res) => {
          if (req.getMethod() === 'HEAD' && res.getStatus() === 401) {
            headUnauthorized = res;
            throw new Error('unauthorized');
          }
        },
        onProgress: (sent, total) => request.onProgress?.(sent, total),
        onSuccess: ({ lastResponse }) => {
          const body = parseBody(lastResponse.getBody());
          // A HEAD that found the file complete (its last PATCH's answer was lost while the server
          // was still recording it) has no answer to give: try again; the stored URL is gone by now,
          // so the next attempt uploads anew and the server answers its recorded upload.
          if (body === undefined) {
            finish(() => resolve({ status: 503, body: { message: 'The upload is being recorded; asking again.' } }));
            return;
          }
          finish(() => resolve({ status: lastResponse.getStatus(), body }));
        },
        onError: (error) => {
          const response = headUnauthorized ?? (error instanceof DetailedError ? error.originalResponse : null);
          if (!response) {
            finish(() => reject(new TypeError(error.message)));
            return;
          }
          const status = response.getStatus();
          const body = parseBody(response.getBody());
          if (TUS_TRANSIENT.has(status) && !hasMessage(body)) {
            finish(() => resolve({ status: 503, body: { message: `tus: HTTP ${status}; resuming from the offset.` } }));
            return;
          }
          if (status >= 400 && status < 500 && ![401, 408, 429].includes(status)) {
            // Refused as it is: a retry by the crew starts a new upload.
            void forget(upload, fingerprint);
          }
          finish(() => resolve({ status, body }));
        },
      });
      const onAbort = () => {
        // Keep the server's partial upload: the next attempt resumes it.
        void upload.abort(false);
        finish(() => reject(new DOMException('The upload was aborted.', 'AbortError')));
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
      upload
        .findPreviousUploads()
        .then((previous) => {
          if (settled) return;
          const mine = previous.find((entry) => entry.uploadUrl);
          if (mine) upload.resumeFromPreviousUpload(mine);
          upload.start();
        })
        .catch((error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))));
    });
  }
}

async function forget(upload: Upload, fingerprint: string): Promise<void> {
  const storage = upload.options.urlStorage;
  if (!storage) return;
  try {
    for (const entry of await storage.findUploadsByFingerprint(fingerprint)) {
      await storage.removeUpload(entry.urlStorageKey);
    }
  } catch {
    // Only a stale URL left behind: the server expires partial uploads after a day.
  }
}

function parseBody(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function hasMessage(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}
