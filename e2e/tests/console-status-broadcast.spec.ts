/**
 * Issue 5 (items 5 and 6), console and crew together: ed1 sets a critical status on the console's
 * statuses panel → medic1's open hospital selector shows it at once, marked critical (no reload, no
 * poll); ed1 clears it → it leaves the selector. ed1 composes a broadcast to Riverside EMS on the
 * console → medic1's Message Center count rises at once and the message is in it.
 */
import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startCase } from '../support/cases';
import { consolePage } from '../support/console';
import { readMessageCenter, signInToStart, snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';

test('status: ed1 sets a critical status → medic1’s hospital choices show it live; clearing removes it', async ({
  page,
  browser,
}, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(page);
  // The team's few hospitals are one-tap choices on the case screen, with their badges (issue 16).
  const choices = page.getByRole('group', { name: 'Destination hospital' });
  const riverside = choices.getByRole('button', { name: new RegExp(`^${hospitals.riversideRegional}`) });
  await expect(riverside).toBeVisible();

  const ed = await consolePage(browser);
  // Unique per run: the e2e database is shared by every spec of the run.
  const text = `On diversion ${randomUUID().slice(0, 8)}`;
  const panel = ed.getByRole('region', { name: /Hospital status/ });
  await panel.getByLabel('New status').fill(text);
  await panel.getByLabel('Priority').selectOption('critical');
  await panel.getByRole('button', { name: 'Set status' }).click();

  const item = panel.getByRole('listitem').filter({ hasText: text });
  await expect(item).toContainText('Critical');
  await expect(riverside).toContainText(`critical: ${text}`, { timeout: 3_000 });
  await snap(ed, testInfo, 'console-status-panel', { fullPage: false });
  await snap(page, testInfo, 'console-status-crew-selector', { fullPage: false });

  await item.getByRole('button', { name: `Clear status ${text}` }).click();
  await expect(item).toBeHidden();
  await expect(riverside).not.toContainText(text, { timeout: 3_000 });
  await ed.context().close();
});

test('broadcast: ed1 sends from the console → medic1’s Message Center shows it and the count rises', async ({
  page,
  browser,
}, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await readMessageCenter(page);
  const center = page.getByRole('dialog', { name: 'Message Center' });

  const ed = await consolePage(browser);
  const content = `Stroke team on site until 06:00 (${randomUUID().slice(0, 8)})`;
  const composer = ed.getByRole('region', { name: 'Broadcast to EMS' });
  await composer.getByLabel('Riverside EMS').check();
  await composer.getByLabel('Message').fill(content);
  await composer.getByLabel('Urgent').check();
  await composer.getByRole('button', { name: 'Send broadcast' }).click();
  await expect(composer.getByRole('list', { name: 'Sent broadcasts' })).toContainText(content);
  await expect(composer.getByLabel('Message')).toHaveValue('');

  // "At least 1": another spec may broadcast to Riverside EMS at the same time (the run is parallel).
  const unread = page.getByRole('button', { name: /^Message Center, \d+ unread$/ });
  await expect(unread).toBeVisible({ timeout: 5_000 });
  await unread.click();
  const ours = center.getByRole('listitem').filter({ hasText: content });
  await expect(ours).toContainText('Urgent');
  await expect(ours).toContainText(hospitals.riversideRegional);
  await composer.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'console-broadcast-composer', { fullPage: false });
  await ed.context().close();
});
