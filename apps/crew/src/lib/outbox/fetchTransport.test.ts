import { describe, expect, it, vi } from 'vitest';
import { createFetchTransport, retryAfterMs } from './fetchTransport';
import type { OutboxRequest } from './types';

const base: OutboxRequest = {
  method: 'PATCH',
  path: '/v4/twiageCases/case-1',
  headers: { 'Idempotency-Key': 'key-1' },
  idempotencyKey: 'key-1',
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

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 23:00:10 GMT', Date.UTC(2026, 10, 21, 23, 0, 0))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
