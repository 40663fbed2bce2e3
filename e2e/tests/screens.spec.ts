import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@inbound/contract';
import { lowContrastTexts } from '../support/contrast';
import { caseNumberFromHeading, chooseComplaint, startCase, tagButton, tapTag } from '../support/cases';
import { atPath, signInToStart, snap } from '../support/crew';
import { teams, users } from '../support/demo';

// A gallery of the screens, for people to look at (e2e/.artifacts/screens/), and a check that each can be
// read: every visible text meets WCAG AA contrast (glare, a moving truck, tired eyes).
// Drawn at a phone's density (the suite's other tests run at 1×, for speed), as a medic sees them.
test.use({ deviceScaleFactor: 2 });

async function expectReadable(page: Page) {
  expect(await lowContrastTexts(page), `low-contrast text on ${new URL(page.url()).pathname}`).toEqual([]);
}

/**
 * Controls smaller than 44 × 44 CSS px (WCAG 2.5.5, Apple's minimum) — too small for a gloved finger in a
 * moving truck. A radio or checkbox counts by its label, which is what the finger hits.
 */
async function smallTargets(page: Page, scope = 'body'): Promise<string[]> {
  return page.locator(scope).evaluate((root) => {
    const small: string[] = [];
    for (const element of root.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea')) {
      const target =
        (element instanceof HTMLInputElement && ['radio', 'checkbox'].includes(element.type)
          ? element.closest('label')
          : element) ?? element;
      const box = target.getBoundingClientRect();
      const style = getComputedStyle(target);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (box.width < 44 || box.height < 44) {
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName;
        small.push(`${name.slice(0, 40)} ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  });
}

test('screens from login to settings can be read @tablet', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expectReadable(page);

  await signInToStart(page, users.medic1.username, teams.lakeside, 'Rescue 7');
  await expectReadable(page);

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(atPath('/settings'));
  await expect(page.getByRole('link', { name: 'Change Password' })).toBeVisible();
  await expectReadable(page);
  await snap(page, testInfo, '06-settings');

  await page.getByRole('link', { name: 'Auto-logout' }).click();
  await expect(page.getByRole('heading', { name: messages.autoLogoutTitle })).toBeVisible();
  await expectReadable(page);
  await snap(page, testInfo, '08-shift');

  await page.goto('/security');
  await expect(page).toHaveURL(atPath('/security'));
  await expectReadable(page);
  await snap(page, testInfo, '10-security');

  await page.goto('/changePassword');
  await expect(page.getByLabel('Current Password', { exact: true })).toBeVisible();
  await expectReadable(page);
  await snap(page, testInfo, '11-change-password');

  await page.goto('/team-selection');
  await expect(page.getByRole('heading', { name: messages.chooseTeam })).toBeVisible();
  await expectReadable(page);
});

test('the Message Center can be read @tablet', async ({ page }, testInfo) => {
  // Guards a bug seen once: the modal, rendered inside the top bar, inherited its white text (white on white).
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 2');
  await page
    .getByRole('button', { name: /message/i })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Message Center' });
  await expect(dialog.getByRole('listitem').first()).toBeVisible();
  await snap(page, testInfo, '12-message-center');
  expect(await lowContrastTexts(page, dialog)).toEqual([]);
});

test('the case screen can be read and tapped with gloves @tablet', async ({ page }, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Ambulance 5');
  await expectReadable(page);
  expect(await smallTargets(page), 'small targets on Start').toEqual([]);
  await snap(page, testInfo, '13-start');

  await startCase(page);
  await caseNumberFromHeading(page);
  await expect(page.getByRole('button', { name: /^Stroke Priority/ })).toBeVisible();
  await expectReadable(page);
  expect(await smallTargets(page), 'small targets on the case screen').toEqual([]);
  await snap(page, testInfo, '14-case-complaints', { fullPage: false });

  await chooseComplaint(page, 'Stroke', 'Deficits');
  await tapTag(page, 'Deficits', 'Facial Droop', true);
  await expectReadable(page);
  expect(await smallTargets(page), 'small targets among the tags').toEqual([]);
  await snap(page, testInfo, '15-case-stroke', { fullPage: false });

  await tagButton(page, 'Onset', 'Last Known Well').click();
  const dialog = page.getByRole('dialog', { name: 'Last Known Well' });
  await expect(dialog.getByRole('button', { name: 'ADD' })).toBeDisabled();
  expect(await lowContrastTexts(page, dialog)).toEqual([]);
  expect(await smallTargets(page, '[role=dialog]'), 'small targets in the tag dialog').toEqual([]);
  await snap(page, testInfo, '16-case-data-tag', { fullPage: false });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // The age row with its widest words (Months, Female), from the narrowest phone that keeps it on one line
  // to the widest: every word has room inside its button, and the row stays on the screen.
  await page.getByRole('button', { name: /^Age unit/ }).click();
  const age = page.getByRole('dialog', { name: 'Age' });
  await age.getByRole('button', { name: 'Months' }).click();
  await age.getByLabel('Age in months').fill('18');
  await age.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Female' }).click();
  // The onset's one-tap times beside them ("Unknown" the widest), at the same widths.
  for (const width of [380, 390, 412, 599]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await crampedInRow(page.getByRole('group', { name: 'Age and gender' })), `at ${width} px`).toEqual([]);
    const times = page.getByRole('group', { name: 'Last Known Well times' });
    expect(await crampedInRow(times), `onset times at ${width} px`).toEqual([]);
    if (width === 380) {
      await times.scrollIntoViewIfNeeded();
      await snap(page, testInfo, '17-case-age-and-onset-380', { fullPage: false });
    }
  }
});

/** Buttons of a row whose word has under 6 px either side inside the border, or that reach past the screen. */
async function crampedInRow(row: Locator): Promise<string[]> {
  return row.evaluate((element) => {
    const cramped: string[] = [];
    for (const button of element.querySelectorAll('button')) {
      const box = button.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(button);
      const text = range.getBoundingClientRect();
      if (box.width - text.width < 2 * (6 + 2) || box.right > document.documentElement.clientWidth)
        cramped.push(`${button.textContent} ${Math.round(box.width)} px for ${Math.round(text.width)} px of text`);
    }
    return cramped;
  });
}
