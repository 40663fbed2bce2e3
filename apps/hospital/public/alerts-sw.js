/* global self */
/*
 * The console's service worker, for one thing only: team activation alerts by Web Push (issue 15).
 * A push shows a notification that stays until answered; tapping it opens (or focuses) the console,
 * where the alert waits with its "On my way" button. The payload holds no patient details.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Inbound', {
      body: data.body || '',
      tag: data.caseId ? `team-${data.caseId}` : 'team',
      renotify: true,
      requireInteraction: true,
      data: { url: data.url || '/hospital/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/hospital/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
      const open = list.find((client) => new URL(client.url).pathname.startsWith('/hospital/'));
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
