/**
 * fetch, mocked at the boundary: routes keyed "METHOD /path" (query ignored) answer JSON; anything
 * unrouted fails the test loudly. The app's own modules run for real.
 */
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type MockAnswer = { status?: number; body?: unknown } | 'network-error';
export type MockHandler = MockAnswer | ((request: RecordedRequest) => MockAnswer | Promise<MockAnswer>);

export function mockFetch(routes: Record<string, MockHandler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const request: RecordedRequest = {
      method,
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    if (handler === undefined) throw new Error(`unexpected request ${method} ${url.pathname}`);
    const answer = typeof handler === 'function' ? await handler(request) : handler;
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    fetchMock,
    /** Requests made to `METHOD /path`. */
    calls: (key: string) => requests.filter((request) => `${request.method} ${request.url.pathname}` === key),
  };
}
