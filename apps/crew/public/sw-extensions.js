/*
 * Inbound's additions to the generated Workbox service worker (loaded with importScripts by sw.js; see
 * vite.config.ts and README "PWA"). A classic script: the service worker is not a module.
 *
 * - `{ type: 'CLEAR_RUNTIME_CACHE' }` (logout): deletes every runtime cache (`inbound-runtime-*`, the
 *   team, hospital statuses and complaint set of the signed-out crew). The precache (the app shell) stays.
 *   It first bumps `self.inboundCacheEpoch`: the runtime caches' guard plugin (src/pwa/signedOutCacheGuard.ts)
 *   then refuses to cache the answer of any request that was still in flight.
 * - `{ type: 'WIPE_CASE', caseIds }` (a closed case whose changes were all delivered): deletes every
 *   runtime-cache entry of those cases (`…/twiageCases/{id}`, `/{id}/…`, `?…`). The configured runtime
 *   caches hold no case GETs today; this keeps a lost tablet free of the case if one ever does.
 * - `sync` for a tag `inbound-case-{id}`: tells every open page to flush its outbox. The outbox is the
 *   mechanism (it also flushes on start, online, visibility and a timer); this is a bonus where Background
 *   Sync exists (Chromium). The page does the sending: it has the token and the queue.
 * - `push`: shows the server's notification (title, body; one per case or transfer); `notificationclick`
 *   focuses the app's window on the payload's screen (`url`, an app path only) or opens one.
 */
/* global self, caches, clients */
(() => {
  const RUNTIME_CACHE_PREFIX = 'inbound-runtime-';
  const CASE_SYNC_PREFIX = 'inbound-case-';
  self.inboundCacheEpoch = 0;

  async function clearRuntimeCaches() {
    const names = await caches.keys();
    const runtime = names.filter((name) => name.startsWith(RUNTIME_CACHE_PREFIX));
    await Promise.all(runtime.map((name) => caches.delete(name)));
    return runtime;
  }

  function isCaseUrl(url, caseIds) {
    const path = new URL(url).pathname;
    return caseIds.some((id) => {
      const at = path.indexOf('/twiageCases/' + encodeURIComponent(id));
      if (at < 0) return false;
      const next = path.charAt(at + '/twiageCases/'.length + encodeURIComponent(id).length);
      return next === '' || next === '/';
    });
  }

  async function wipeCaseEntries(caseIds) {
    const names = (await caches.keys()).filter((name) => name.startsWith(RUNTIME_CACHE_PREFIX));
    let deleted = 0;
    for (const name of names) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        if (isCaseUrl(request.url, caseIds) && (await cache.delete(request))) deleted += 1;
      }
    }
    return deleted;
  }

  async function askPagesToFlush(tag) {
    const pages = await clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage({ type: 'FLUSH_OUTBOX', tag });
  }

  self.addEventListener('message', (event) => {
    const data = event.data;
    if (data && data.type === 'WIPE_CASE' && Array.isArray(data.caseIds)) {
      const caseIds = data.caseIds.filter((id) => typeof id === 'string' && id !== '');
      event.waitUntil(
        wipeCaseEntries(caseIds).then((deleted) => {
          const port = event.ports && event.ports[0];
          if (port) port.postMessage({ type: 'CASE_WIPED', deleted });
        }),
      );
      return;
    }
    if (!data || data.type !== 'CLEAR_RUNTIME_CACHE') return;
    self.inboundCacheEpoch += 1;
    event.waitUntil(
      clearRuntimeCaches().then((cleared) => {
        const port = event.ports && event.ports[0];
        if (port) port.postMessage({ type: 'RUNTIME_CACHE_CLEARED', cleared });
      }),
    );
  });

  self.addEventListener('sync', (event) => {
    if (typeof event.tag !== 'string' || !event.tag.startsWith(CASE_SYNC_PREFIX)) return;
    event.waitUntil(askPagesToFlush(event.tag));
  });

  // ---- Web Push (spec §4 topics user-{id}, ems-{caseId}; the server's PushPayload) ------------------

  /** Only the app's own paths: a payload must not send the crew elsewhere. */
  function appUrl(url) {
    return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
  }

  function readPayload(event) {
    try {
      const payload = event.data ? event.data.json() : null;
      if (payload && typeof payload.title === 'string') return payload;
    } catch {
      // Not JSON: shown with the generic title below.
    }
    return { title: 'Inbound', body: event.data ? event.data.text() : '', url: '/', caseId: null, transferId: null };
  }

  self.addEventListener('push', (event) => {
    const payload = readPayload(event);
    // One notification per case or transfer: a newer one replaces the older (renotify still alerts).
    const tag = payload.transferId
      ? 'transfer-' + payload.transferId
      : payload.caseId
        ? 'case-' + payload.caseId
        : 'inbound';
    event.waitUntil(
      self.registration.showNotification(payload.title, {
        body: typeof payload.body === 'string' ? payload.body : '',
        tag,
        renotify: true,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { url: appUrl(payload.url) },
      }),
    );
  });

  /** Tapped: focus an open window of the app on that screen, or open one. */
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = appUrl(event.notification.data && event.notification.data.url);
    const target = new URL(path, self.location.origin).href;
    event.waitUntil(
      clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
        const page = pages.find((candidate) => new URL(candidate.url).origin === self.location.origin);
        if (!page) return clients.openWindow(target);
        const shown =
          page.url === target || typeof page.navigate !== 'function' ? Promise.resolve(page) : page.navigate(target);
        return shown.then((navigated) => (navigated || page).focus());
      }),
    );
  });
})();
