import { expect, test, type Page } from '@playwright/test';
import { messages } from '@inbound/contract';
import { lowContrastTexts } from '../support/contrast';
import { atPath, signInToStart, snap } from '../support/crew';
import { teams, users } from '../support/demo';

// A gallery of the screens, for people to look at (e2e/.artifacts/screens/), and a check that each can be
// read: every visible text meets WCAG AA contrast (glare, a moving truck, tired eyes).
async function expectReadable(page: Page) {
  expect(await lowContrastTexts(page), `low-contrast text on ${new URL(page.url()).pathname}`).toEqual([]);
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
