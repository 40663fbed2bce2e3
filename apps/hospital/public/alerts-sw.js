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

// A console open when the worker starts is one it serves at once, so a tap can take it to the case.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/hospital/';
  // An open console goes to the case (and comes to the front); with none open, a new window opens it.
  const opened = self.clients.matchAll({ type: 'window' }).then((list) => {
    const open = list.find((client) => new URL(client.url).pathname.startsWith('/hospital/'));
    if (!open) return self.clients.openWindow(url);
    return open.navigate(url).then((client) => (client || open).focus());
  });
  event.waitUntil(opened);
});
