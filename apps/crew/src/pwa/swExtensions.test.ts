/**
 * public/sw-extensions.js (loaded by the generated sw.js with importScripts), run in a sandbox with a
 * fake service-worker scope: logout's cache clearing and the background-sync flush message.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { signedOutCacheGuard } from './signedOutCacheGuard';
import { RUNTIME_CACHE_PREFIX, SW_MESSAGE } from './swMessages';

const script = readFileSync(path.resolve(import.meta.dirname, '../../public/sw-extensions.js'), 'utf8');

type Listener = (event: Record<string, unknown>) => void;

function loadExtensions() {
  const listeners: Record<string, Listener[]> = {};
  const names = new Set([
    'workbox-precache-v2-http://localhost/',
    `${RUNTIME_CACHE_PREFIX}teams`,
    `${RUNTIME_CACHE_PREFIX}complaint-sets`,
    `${RUNTIME_CACHE_PREFIX}hospital-statuses`,
  ]);
  const pages = [{ postMessage: vi.fn() }, { postMessage: vi.fn() }];
  const self: { addEventListener: (type: string, listener: Listener) => void; inboundCacheEpoch?: number } = {
    addEventListener: (type: string, listener: Listener) => (listeners[type] ??= []).push(listener),
  };
  /** Cached request URLs per cache name. */
  const entries = new Map<string, string[]>([
    [
      `${RUNTIME_CACHE_PREFIX}teams`,
      [
        'http://localhost/v4/emsAgencies/riverside',
        'http://localhost/v4/twiageCases/case-1?uniquevalue=5',
        'http://localhost/v4/twiageCases/case-1/media',
        'http://localhost/v4/twiageCases/case-10',
      ],
    ],
    ['workbox-precache-v2-http://localhost/', ['http://localhost/index.html']],
  ]);
  const caches = {
    keys: async () => [...names],
    delete: async (name: string) => names.delete(name),
    open: async (name: string) => ({
      keys: async () => (entries.get(name) ?? []).map((url) => ({ url })),
      delete: async (request: { url: string }) => {
        const urls = entries.get(name) ?? [];
        const at = urls.indexOf(request.url);
        if (at >= 0) urls.splice(at, 1);
        return at >= 0;
      },
    }),
  };
  const clients = { matchAll: vi.fn(async () => pages) };
  runInNewContext(script, { self, caches, clients, URL });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    for (const listener of listeners[type] ?? [])
      listener({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
    return waits.length;
  };
  return { dispatch, names, pages, clients, entries, self };
}

describe('service worker extensions', () => {
  it('CLEAR_RUNTIME_CACHE deletes the runtime caches and keeps the precache (the app shell)', async () => {
    const { dispatch, names } = loadExtensions();
    const reply = { postMessage: vi.fn() };
    await dispatch('message', { data: { type: SW_MESSAGE.clearRuntimeCache }, ports: [reply] });
    expect([...names]).toEqual(['workbox-precache-v2-http://localhost/']);
    expect(reply.postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'RUNTIME_CACHE_CLEARED' }));
  });

  it('CLEAR_RUNTIME_CACHE starts a new cache epoch, so answers to requests in flight are not cached', async () => {
    const { dispatch, self } = loadExtensions();
    expect(self.inboundCacheEpoch).toBe(0);
    const inFlight = { epoch: 0 };
    await signedOutCacheGuard.requestWillFetch({
      request: new Request('http://localhost/v4/hospitals/h/statuses'),
      state: inFlight,
    });
    await dispatch('message', { data: { type: SW_MESSAGE.clearRuntimeCache } });
    expect(self.inboundCacheEpoch).toBe(1);
    // The guard reads the epoch from the worker's global scope; here the sandbox's `self` stands for it.
    vi.stubGlobal('inboundCacheEpoch', self.inboundCacheEpoch);
    const answer = new Response('[]');
    expect(await signedOutCacheGuard.cacheWillUpdate({ response: answer, state: inFlight })).toBeNull();
    const after = { epoch: -1 };
    await signedOutCacheGuard.requestWillFetch({
      request: new Request('http://localhost/v4/hospitals/h/statuses'),
      state: after,
    });
    expect(await signedOutCacheGuard.cacheWillUpdate({ response: answer, state: after })).toBe(answer);
    vi.unstubAllGlobals();
  });

  it("WIPE_CASE deletes the runtime-cache entries of those cases only (not another case's, not the precache)", async () => {
    const { dispatch, entries, names } = loadExtensions();
    const reply = { postMessage: vi.fn() };
    await dispatch('message', { data: { type: SW_MESSAGE.wipeCase, caseIds: ['case-1'] }, ports: [reply] });
    expect(entries.get(`${RUNTIME_CACHE_PREFIX}teams`)).toEqual([
      'http://localhost/v4/emsAgencies/riverside',
      'http://localhost/v4/twiageCases/case-10',
    ]);
    expect(entries.get('workbox-precache-v2-http://localhost/')).toEqual(['http://localhost/index.html']);
    expect(names.size).toBe(4);
    expect(reply.postMessage).toHaveBeenCalledWith({ type: 'CASE_WIPED', deleted: 2 });
  });

  it('ignores other messages (Workbox handles SKIP_WAITING itself)', async () => {
    const { dispatch, names } = loadExtensions();
    expect(await dispatch('message', { data: { type: 'SKIP_WAITING' } })).toBe(0);
    expect(names.size).toBe(4);
  });

  it('a case sync tag asks every page to flush its outbox; other tags are left alone', async () => {
    const { dispatch, pages } = loadExtensions();
    expect(await dispatch('sync', { tag: 'something-else' })).toBe(0);
    await dispatch('sync', { tag: 'inbound-case-42' });
    for (const page of pages) {
      expect(page.postMessage).toHaveBeenCalledWith({ type: SW_MESSAGE.flushOutbox, tag: 'inbound-case-42' });
    }
  });
});
