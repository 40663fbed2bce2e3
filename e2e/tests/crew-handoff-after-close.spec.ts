/**
 * Issue 15, the crew's hand-over after the close: the crew closes the case at the hospital's door (the
 * close marks the arrival) and is back on Start, where the just-closed case's offload timer runs; the ED
 * accepts the hand-over on its board → Start reads "Handoff accepted by Taylor Brooks hh:mm", from the
 * case channel, and still does after a reload (the device keeps the case number, hospital, times and
 * who — no patient data). Screens: e2e/.artifacts/screens/*-closed-handoff-*.png.
 */
import { expect, test } from '@playwright/test';
import { messages } from '@inbound/contract';
import {
  caseNumberFromHeading,
  chooseHospital,
  expectNothingWaiting,
  fillPatientInfo,
  startCase,
} from '../support/cases';
import { consolePage } from '../support/console';
import { signInToStart, snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';

test('after the close at the door, Start shows the offload timer, then who accepted the hand-over', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const ed = await consolePage(browser);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    timezoneId: 'UTC',
  });
  const crew = await context.newPage();
  await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseHospital(crew, hospitals.riversideRegional);
  await fillPatientInfo(crew, { 'First Name': 'Ada', 'Last Name': 'Lovelace', DOB: '1959-03-14' });
  await expectNothingWaiting(crew);

  await crew.getByRole('button', { name: 'Close Case' }).click();
  await crew.getByRole('alertdialog', { name: 'Close Case' }).getByRole('button', { name: 'Yes' }).click();
  await expect(crew.getByRole('button', { name: messages.startCase })).toBeVisible();
  // Riverside takes case feedback: the rating comes first; the crew closes it for later.
  await crew.getByRole('dialog', { name: 'Case Feedback' }).getByRole('button', { name: 'Close' }).click();

  // Start: the closed case's line, the timer running from the arrival the close recorded.
  const line = crew.getByRole('region', { name: 'Hand-over of the closed case' });
  await expect(line).toContainText(`Case ${caseNumber} · ${hospitals.riversideRegional}`);
  const timer = line.getByTestId('closed-offload-timer');
  await expect(timer).toHaveText(/^Arrived \d\d:\d\d · waiting for handoff\d+:\d\d$/);
  const first = await timer.locator('.arrival-line__timer').textContent();
  await expect(timer.locator('.arrival-line__timer')).not.toHaveText(first!); // it runs
  await line.scrollIntoViewIfNeeded();
  await snap(crew, testInfo, 'closed-handoff-timer', { fullPage: false });

  // The ED accepts the hand-over from its Arrived lane.
  const arrived = ed.getByTestId('arrived-card').filter({ hasText: caseNumber });
  await expect(arrived).toContainText('by the crew');
  await arrived.getByRole('button', { name: 'Accept handoff' }).click();
  await expect(arrived).toHaveCount(0);

  const accepted = line.getByTestId('closed-handoff-accepted');
  await expect(accepted).toHaveText(new RegExp(`^✓ Handoff accepted by ${users.ed1.displayName} \\d\\d:\\d\\d$`));
  await expect(line.getByTestId('closed-offload-timer')).toHaveCount(0);
  await line.scrollIntoViewIfNeeded();
  await snap(crew, testInfo, 'closed-handoff-accepted', { fullPage: false });

  // Kept on the device (non-PHI): a reload still says it.
  await crew.reload();
  await expect(accepted).toHaveText(new RegExp(`^✓ Handoff accepted by ${users.ed1.displayName} \\d\\d:\\d\\d$`));
  await expect(line).not.toContainText('Lovelace');
  await context.close();
  await ed.context().close();
});
