import { expect, test } from '@playwright/test';
import {
  caseIdByNumber,
  caseNumberFromHeading,
  chooseHospital,
  expectNothingWaiting,
  startCase,
} from '../support/cases';
import { readMessageCenter, serviceWorkerInControl, signInToStart, snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';
import { hospitalChatBody, hospitalClient, SEED } from '../support/realtime';

// Issue 4, Browser: chat both ways between a crew (the crew app) and the hospital (a second client, the
// API the console uses) in real time — no reload, no poll; and a broadcast sent while the crew is on
// Start reaches the Message Center at once and raises the envelope's count.

test('chat: crew and hospital talk both ways in real time; the crew sees sent, delivered, read', async ({
  page,
  baseURL,
}, testInfo) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(page);
  const caseNumber = await caseNumberFromHeading(page);
  await chooseHospital(page, hospitals.riversideRegional);
  await expectNothingWaiting(page);
  const caseId = caseIdByNumber(dataDir, caseNumber);
  expect(caseId).not.toBeNull();
  const chatPath = `/notification/twiage-cases/${caseId}/chat-messages`;
  const ed = await hospitalClient(baseURL!);

  // Crew → hospital. Enter sends; whitespace-only does not.
  await page.getByRole('tab', { name: 'CHAT' }).click();
  const input = page.getByRole('textbox', { name: 'Write a message' });
  const log = page.getByRole('log', { name: 'Chat messages' });
  await input.fill('   ');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await input.fill('Stroke alert, ETA 8 minutes');
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const mine = log.getByRole('listitem').filter({ hasText: 'Stroke alert, ETA 8 minutes' });
  await expect(mine).toContainText('Sent');
  const hospitalView = (await (await ed.get(chatPath)).json()) as {
    messages: { _id: string; content: string; source: string }[];
  };
  const posted = hospitalView.messages.find((message) => message.content === 'Stroke alert, ETA 8 minutes');
  expect(posted?.source).toBe('web_ems');

  // The hospital's receipts arrive live: delivered, then read.
  expect((await ed.post(`${chatPath}/${posted!._id}/delivered`)).status).toBe(200);
  await expect(mine).toContainText('Delivered to the hospital');
  expect((await ed.post(`${chatPath}/${posted!._id}/read`)).status).toBe(200);
  await expect(mine).toContainText('Read');

  // Hospital → crew, while the CHAT tab is open.
  expect((await ed.post(chatPath, hospitalChatBody('Bay 3, stroke team waiting'))).status).toBe(201);
  await expect(log.getByRole('listitem').filter({ hasText: 'Bay 3, stroke team waiting' })).toContainText(
    users.ed1.displayName,
  );
  await snap(page, testInfo, '40-case-chat', { fullPage: false });

  // While another tab shows, a hospital message raises the CHAT tab's unread badge; opening it clears it.
  await page.getByRole('tab', { name: 'COMPLAINTS' }).click();
  expect((await ed.post(chatPath, hospitalChatBody('CT is ready'))).status).toBe(201);
  await expect(page.getByRole('tab', { name: 'CHAT, 1 unread' })).toBeVisible();
  await page.getByRole('tab', { name: /^CHAT/ }).click();
  await expect(log).toContainText('CT is ready');
  await expect(page.getByRole('tab', { name: 'CHAT', exact: true })).toBeVisible();
});

test('chat typed offline waits in the outbox and goes when the network is back', async ({ page, context, baseURL }) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(page);
  const caseNumber = await caseNumberFromHeading(page);
  await chooseHospital(page, hospitals.riversideRegional);
  await expectNothingWaiting(page);
  const caseId = caseIdByNumber(dataDir, caseNumber);

  await page.getByRole('tab', { name: 'CHAT' }).click();
  // The reload below, offline, is served by the service worker: on a loaded machine it may still be
  // installing on this first visit (the reload then failed with ERR_INTERNET_DISCONNECTED in CI).
  await serviceWorkerInControl(page);
  await context.setOffline(true);
  const input = page.getByRole('textbox', { name: 'Write a message' });
  await input.fill('Patient deteriorating');
  await page.getByRole('button', { name: 'Send' }).click();
  const mine = page.getByRole('log', { name: 'Chat messages' }).getByRole('listitem').filter({
    hasText: 'Patient deteriorating',
  });
  await expect(mine).toContainText('Waiting to send');
  await page.reload();
  await page.getByRole('tab', { name: 'CHAT' }).click();
  await expect(mine).toContainText('Waiting to send');

  await context.setOffline(false);
  await expect(mine).toContainText('Sent', { timeout: 30_000 });
  const ed = await hospitalClient(baseURL!);
  const list = (await (await ed.get(`/notification/twiage-cases/${caseId}/chat-messages`)).json()) as {
    messages: { content: string }[];
  };
  expect(list.messages.filter((message) => message.content === 'Patient deteriorating')).toHaveLength(1);
});

test('a broadcast sent while the crew is on Start arrives in the Message Center and raises the count', async ({
  page,
  baseURL,
}, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await readMessageCenter(page);
  const center = page.getByRole('dialog', { name: 'Message Center' });

  const content = `Mercy General on diversion until 18:00 (${Date.now()})`;
  const ed = await hospitalClient(baseURL!);
  const sent = await ed.post('/notification/broadcasts', {
    hospitalId: SEED.riversideRegional,
    emsAgencyIds: [SEED.riversideAgency],
    content,
    urgent: true,
  });
  expect(sent.status).toBe(201);

  // Live: well inside the 60 s fallback poll. Another spec running beside this one may broadcast to
  // the same agency, so the count is at least 1 and the message is found by its own text.
  const unread = page.getByRole('button', { name: /^Message Center, \d+ unread$/ });
  await expect(unread).toBeVisible({ timeout: 5_000 });
  await unread.click();
  const mine = center.getByRole('listitem').filter({ hasText: content });
  await expect(mine).toContainText('Urgent');
  await expect(mine).toContainText(hospitals.riversideRegional);
  await snap(page, testInfo, '41-message-center-live');
});
