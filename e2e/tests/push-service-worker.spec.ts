import { expect, test } from '@playwright/test';
import type { PushPayload } from '@inbound/contract';
import { signInToStart } from '../support/crew';
import { teams, users } from '../support/demo';

// Issue 4, push (client part): headless Chromium has no push service to subscribe to, so the built
// service worker gets a synthetic push through the DevTools protocol (ServiceWorker.deliverPushMessage)
// and must show the notification the server's payload describes.

test('the service worker shows a push as a notification', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await page.evaluate(() => navigator.serviceWorker.ready);

  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((registration) => !registration.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const payload: PushPayload = {
    type: 'CASE_TRANSFER_UPDATED',
    title: 'Case transfer',
    body: 'Someone wants to receive your case.',
    url: '/case',
    caseId: 'case-1',
    transferId: 'tr-1',
  };
  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        url: (notification.data as { url: string }).url,
      }));
    });
  // Chromium starts the worker for the push. Once, in CI beside a video upload, nothing was shown within
  // 7 s, and whether the push was late or lost could not be told: it is delivered again until shown, as a
  // push service keeps a message until the browser takes it. The tag keeps it one notification.
  await expect(async () => {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(baseURL!).origin,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    await expect.poll(shown, { timeout: 5_000 }).toHaveLength(1);
  }).toPass({ timeout: 30_000 });
  expect(await shown()).toEqual([
    { title: 'Case transfer', body: 'Someone wants to receive your case.', tag: 'transfer-tr-1', url: '/case' },
  ]);
});
