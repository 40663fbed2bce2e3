/**
 * The link between the crew's `fetch` and the server, as the schedule sets it. Offline, or with the
 * server down, a request fails as fetch does (a TypeError, no answer). A kill can be armed for the next
 * request that reaches the server: `before-delivery` kills it as the request arrives (nothing written),
 * `after-commit` lets the server commit and answer, throws the answer away and kills it — the case the
 * idempotency key exists for. An answer from a server killed while the request was in flight is lost too.
 */
import type { ServerUnderTest } from './server/server-types';

export type KillPoint = 'before-delivery' | 'after-commit';

export interface Network {
  /** The crew device's connectivity. */
  online: boolean;
  /** The kill waiting for the next request that reaches the server, if any. */
  armedKill: KillPoint | null;
  /**
   * Set to crash the crew's page as the next request reaches the server: called once the server has
   * answered, before the answer is handed back — the page dies with the request in flight.
   */
  crashClientOnDelivery: (() => Promise<void>) | null;
  /** The crash that `crashClientOnDelivery` started, until it is over. */
  clientCrash: Promise<void> | null;
  /** Requests the server received (delivered, whether or not the answer came back). */
  delivered: number;
  /** Answers the server gave from its idempotency record (a repeat of a change it already had). */
  replayed: number;
  /** What the crew's `createFetchTransport` calls instead of the global fetch. */
  fetch: typeof fetch;
}

export function createNetwork(server: ServerUnderTest): Network {
  const network: Network = {
    online: true,
    armedKill: null,
    crashClientOnDelivery: null,
    clientCrash: null,
    delivered: 0,
    replayed: 0,
    async fetch(input, init) {
      if (!network.online) throw new TypeError('fetch failed: the device is offline');
      const app = server.app;
      if (!app) throw new TypeError('fetch failed: connection refused (server down)');
      const kill = network.armedKill;
      network.armedKill = null;
      if (kill === 'before-delivery') {
        server.kill();
        throw new TypeError('fetch failed: connection reset (server killed)');
      }
      const generation = server.generation;
      network.delivered += 1;
      const res = await app.inject({
        method: (init?.method ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: requestUrl(input),
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
      });
      const crash = network.crashClientOnDelivery;
      network.crashClientOnDelivery = null;
      // Not awaited here: stopping the outbox waits for this request's pass, which the abort ends.
      if (crash) network.clientCrash = crash();
      if (kill === 'after-commit') {
        server.kill();
        throw new TypeError('fetch failed: socket hang up (server killed after its commit)');
      }
      if (server.generation !== generation) throw new TypeError('fetch failed: socket hang up (server killed)');
      if (res.headers['idempotent-replayed'] === 'true') network.replayed += 1;
      return new Response(res.body === '' ? null : res.body, {
        status: res.statusCode,
        headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
      });
    },
  };
  return network;
}

function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? `${input.pathname}${input.search}` : input.url;
}
