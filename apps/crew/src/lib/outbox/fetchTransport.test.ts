import { describe, expect, it, vi } from 'vitest';
import { createFetchTransport, retryAfterMs } from './fetchTransport';
import type { OutboxRequest } from './types';

const base: OutboxRequest = {
  method: 'PATCH',
  path: '/v4/twiageCases/case-1',
  headers: { 'Idempotency-Key': 'key-1' },
  idempotencyKey: 'key-1',
  caseId: 'case-1',
  createdAt: Date.UTC(2026, 10, 21, 23, 5, 0),
  json: { gender: 'F' },
  signal: new AbortController().signal,
};

function fakeFetch(response: Response) {
  return vi.fn<typeof fetch>(() => Promise.resolve(response));
}

describe('createFetchTransport', () => {
  it('sends the idempotency key, the session token, the time of the change and the JSON body', async () => {
    const doFetch = fakeFetch(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    const transport = createFetchTransport({ getToken: () => 'tok', baseUrl: 'https://api.example', fetch: doFetch });
    expect(await transport(base)).toEqual({ status: 200, body: { ok: true }, retryAfterMs: undefined });
    const [url, init] = doFetch.mock.calls[0]!;
    expect(url).toBe('https://api.example/v4/twiageCases/case-1');
    expect(init).toMatchObject({
      method: 'PATCH',
      body: '{"gender":"F"}',
      signal: base.signal,
      headers: {
        'Idempotency-Key': 'key-1',
        Authorization: 'JWT tok',
        'Created-At': '2026-11-21T23:05:00.000Z',
        'Content-Type': 'application/json',
      },
    });
  });

  it('returns HTTP errors (the outbox decides) and throws only when there is no answer', async () => {
    const refused = createFetchTransport({
      getToken: () => null,
      fetch: fakeFetch(new Response('{"message":"no"}', { status: 422, headers: { 'Retry-After': '3' } })),
    });
    expect(await refused(base)).toEqual({ status: 422, body: { message: 'no' }, retryAfterMs: 3_000 });
    const offline = createFetchTransport({
      getToken: () => null,
      fetch: vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))),
    });
    await expect(offline(base)).rejects.toThrow('Failed to fetch');
  });

  it('sends media as multipart with the file under its field', async () => {
    const doFetch = fakeFetch(new Response(null, { status: 201 }));
    const transport = createFetchTransport({ getToken: () => null, fetch: doFetch });
    const blob = new Blob(['jpeg'], { type: 'image/jpeg' });
    await transport({
      ...base,
      method: 'POST',
      json: undefined,
      multipart: { fields: { type: 'photo' }, file: { field: 'data', name: 'photo.jpeg', blob } },
    });
    const init = doFetch.mock.calls[0]![1]!;
    const form = init.body as FormData;
    expect(form.get('type')).toBe('photo');
    expect((form.get('data') as File).name).toBe('photo.jpeg');
    expect(init.headers).not.toHaveProperty('Content-Type');
  });
});

/** Just what the transport uses of an XMLHttpRequest; `respond`/`fail` play the network. */
class FakeXhr extends EventTarget {
  readonly upload = new EventTarget();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  aborted = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: string, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = body;
    this.responseHeaders = headers;
    this.dispatchEvent(new Event('load'));
  }
}

describe('multipart over XHR (upload progress)', () => {
  const blob = new Blob([new Uint8Array(1_000)], { type: 'video/mp4' });
  const media = (signal = new AbortController().signal, onProgress?: (loaded: number, total: number) => void) => ({
    ...base,
    method: 'POST' as const,
    path: '/media/twiage-cases/case-1/uploads',
    json: undefined,
    signal,
    onProgress,
    multipart: { fields: { type: 'video' }, file: { field: 'data', name: 'video.mp4', blob } },
  });

  it('reports progress in the file’s bytes, and answers the status and body with the usual headers', async () => {
    const xhr = new FakeXhr();
    const transport = createFetchTransport({ getToken: () => 'abc', xhr: () => xhr as unknown as XMLHttpRequest });
    const progress: [number, number][] = [];
    const answer = transport(media(undefined, (loaded, total) => progress.push([loaded, total])));
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/media/twiage-cases/case-1/uploads');
    expect(xhr.headers).toMatchObject({
      Authorization: 'JWT abc',
      'Idempotency-Key': 'key-1',
      'Created-At': '2026-11-21T23:05:00.000Z',
    });
    expect((xhr.body as FormData).get('type')).toBe('video');
    // The envelope adds 200 bytes around the file: progress is told in the file's own bytes.
    xhr.progress(600, 1_200);
    xhr.progress(1_200, 1_200);
    xhr.respond(201, '{"upload":{"id":"u1"}}', { 'Retry-After': '2' });
    await expect(answer).resolves.toEqual({ status: 201, body: { upload: { id: 'u1' } }, retryAfterMs: 2_000 });
    expect(progress).toEqual([
      [500, 1_000],
      [1_000, 1_000],
    ]);
  });

  it('throws on no answer and on abort (the outbox retries), never on an HTTP error', async () => {
    const failing = new FakeXhr();
    const transport = createFetchTransport({ getToken: () => null, xhr: () => failing as unknown as XMLHttpRequest });
    const lost = transport(media());
    failing.dispatchEvent(new Event('error'));
    await expect(lost).rejects.toThrow('Failed to upload');

    const slow = new FakeXhr();
    const controller = new AbortController();
    const aborted = createFetchTransport({ getToken: () => null, xhr: () => slow as unknown as XMLHttpRequest })(
      media(controller.signal),
    );
    controller.abort();
    await expect(aborted).rejects.toThrow('aborted');
    expect(slow.aborted).toBe(true);

    const refused = new FakeXhr();
    const answer = createFetchTransport({ getToken: () => null, xhr: () => refused as unknown as XMLHttpRequest })(
      media(),
    );
    refused.respond(415, '{"message":"This file is not a supported video"}');
    await expect(answer).resolves.toMatchObject({
      status: 415,
      body: { message: 'This file is not a supported video' },
    });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 23:00:10 GMT', Date.UTC(2026, 10, 21, 23, 0, 0))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
