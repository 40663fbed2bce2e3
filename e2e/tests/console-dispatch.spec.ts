/**
 * Issue 5 item 6, console and crew together: ed1 dispatches a stroke to Riverside EMS from the console
 * → medic1 (Riverside EMS, Medic 1, on Start) sees the emsDispatch message in the Message Center,
 * clicks 'Click Here to load the case', confirms 'Are you sure you want to start this case?' (Start) →
 * lands on the case screen with that case number and the Stroke complaint; ed1's board shows the
 * dispatch claimed by Medic 1 and the case among the inbound cards. Loading it again (now claimed)
 * shows §8's Message Center warning.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { destinationShown } from '../support/cases';
import { DISPATCH_NUMBER_PATTERN, messages, transferMessages } from '@inbound/contract';
import { consolePage } from '../support/console';
import { atPath, readMessageCenter, signInToStart, snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';

test('dispatch: ed1 dispatches a stroke → medic1 loads it from the Message Center → the board shows it claimed', async ({
  page,
  browser,
}, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await readMessageCenter(page);

  const ed = await consolePage(browser);
  const composer = ed.getByRole('region', { name: 'Broadcast to EMS' });
  await composer.getByRole('button', { name: 'Dispatch a case' }).click();
  await expect(composer.getByLabel('Agency')).toHaveValue(/riverside/);
  await composer.getByLabel('Complaint').selectOption({ label: 'Stroke (priority 1)' });
  // Unique per run: the e2e database is shared by every spec of the run.
  const notes = `Priority 1, pick up at ED bay 2 (${randomUUID().slice(0, 8)})`;
  await composer.getByLabel('Priority and notes').fill(notes);
  await composer.getByLabel('Urgent').check();
  await composer.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'console-dispatch-composer', { fullPage: false });
  await composer.getByRole('button', { name: 'Dispatch case' }).click();
  const done = composer.getByRole('status').filter({ hasText: 'dispatched to Riverside EMS' });
  await expect(done).toBeVisible();
  const caseNumber = (await done.locator('strong').innerText()).trim();
  expect(caseNumber).toMatch(DISPATCH_NUMBER_PATTERN);
  await expect(composer.getByRole('list', { name: 'Sent broadcasts' }).getByRole('listitem').first()).toContainText(
    `Dispatch ${caseNumber}`,
  );
  const dispatched = ed.getByRole('region', { name: 'Dispatched cases' });
  const card = dispatched.getByRole('listitem').filter({ hasText: caseNumber });
  await expect(card).toContainText('Dispatched — awaiting crew');
  await dispatched.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'console-dispatch-awaiting', { fullPage: false });

  // medic1: the message arrives live; it carries the load link.
  const unread = page.getByRole('button', { name: /^Message Center, \d+ unread$/ });
  await expect(unread).toBeVisible({ timeout: 5_000 });
  await unread.click();
  const center = page.getByRole('dialog', { name: 'Message Center' });
  const message = center.getByRole('listitem').filter({ hasText: notes });
  await expect(message).toContainText(`Case ${caseNumber} dispatched to you: Stroke.`);
  await expect(message).toContainText('Urgent');
  await expect(message).toContainText(hospitals.riversideRegional);
  await snap(page, testInfo, 'crew-message-center-dispatch', { fullPage: false });
  await message.getByRole('button', { name: messages.loadDispatchCase }).click();
  const confirm = page.getByRole('alertdialog').filter({ hasText: messages.confirmStartCase });
  await confirm.getByRole('button', { name: 'Start' }).click();

  await expect(page).toHaveURL(atPath('/case'));
  await expect(page.getByRole('heading', { name: `Case ${caseNumber}` })).toBeVisible();
  // The complaint is Stroke: its sections are open on the complaints tab.
  await expect(page.getByRole('region', { name: 'Deficits' })).toBeVisible();
  await expect(destinationShown(page, hospitals.riversideRegional)).toBeVisible();
  await snap(page, testInfo, 'crew-dispatched-case-loaded', { fullPage: false });

  // ed1's board: the dispatch is claimed by the truck, and the case is an inbound card.
  await expect(card).toContainText('Claimed by Medic 1', { timeout: 3_000 });
  await expect(ed.getByRole('link', { name: `Stroke, priority 1, case ${caseNumber}` })).toBeVisible({
    timeout: 3_000,
  });
  await dispatched.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'console-dispatch-claimed', { fullPage: false });
  await ed.context().close();

  // Another crew member of Riverside EMS tries the same message: the case is no longer available.
  const other = await browser.newContext();
  const medic2 = await other.newPage();
  await signInToStart(medic2, users.medic2.username, teams.riverside, 'Medic 2');
  await medic2.getByRole('button', { name: /^Message Center/ }).click();
  const theirs = medic2
    .getByRole('dialog', { name: 'Message Center' })
    .getByRole('listitem')
    .filter({ hasText: notes });
  await theirs.getByRole('button', { name: messages.loadDispatchCase }).click();
  await medic2
    .getByRole('alertdialog')
    .filter({ hasText: messages.confirmStartCase })
    .getByRole('button', { name: 'Start' })
    .click();
  await expect(medic2.getByText(transferMessages.notAvailableFromMessageCenter(caseNumber))).toBeVisible();
  await expect(medic2).toHaveURL(atPath('/start'));
  await other.close();
});
