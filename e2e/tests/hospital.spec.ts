import { expect, test } from '@playwright/test';
import { messages, serverMessages } from '@inbound/contract';
import { openAccountMenu, signInToConsole } from '../support/console';
import { snap } from '../support/crew';
import { hospitals, users } from '../support/demo';

test.describe('hospital console', () => {
  test("ed1 signs in and sees their hospital's name; a reload keeps the session; sign out ends it", async ({
    page,
  }, testInfo) => {
    await page.goto('/hospital/');
    await snap(page, testInfo, 'hospital-01-sign-in');

    await signInToConsole(page, users.ed1.username);
    await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
    await expect(page.getByText(users.ed1.displayName, { exact: true })).toBeVisible();
    // One header row on a 1280×800 ED desktop (with the account's links in it, it wrapped to two: 160 px).
    await expect(page.getByTestId('connection')).toHaveText(/Live/);
    expect((await page.getByRole('banner').boundingBox())?.height).toBeLessThan(100);
    await snap(page, testInfo, 'hospital-02-header');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
    // The sign-in is in sessionStorage only: nothing of the session outlives the tab on a shared ED screen.
    // localStorage may hold the field-error reporter's random device id (issue 18: the server's per-device
    // limit; no user, token or patient data) and nothing else.
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('inbound.hospital.session'),
      local: Object.fromEntries(Object.entries(localStorage)),
    }));
    expect(stored.session).toContain('"token"');
    const { 'inbound.error-report-device': deviceId, ...otherLocal } = stored.local;
    expect(otherLocal).toEqual({});
    if (deviceId !== undefined) expect(deviceId).toMatch(/^[0-9a-f]{24}$/);

    await (await openAccountMenu(page)).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test('validates the form and shows the server message for a wrong password', async ({ page }) => {
    await page.goto('/hospital/');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(messages.fillUsername, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeVisible();

    await signInToConsole(page, users.ed1.username, 'wrong-password');
    await expect(page.getByRole('alert')).toHaveText(serverMessages.invalidCredentials);
  });

  test('an organisation admin signs in and sees their name', async ({ page }) => {
    await signInToConsole(page, users.admin.username);
    // In the header: the administration page an admin lands on lists the users, this one among them, once
    // it has loaded — a page-wide lookup then finds the name twice.
    await expect(page.getByRole('banner').getByText(users.admin.displayName, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });

  test('a crew member without an ED is told so, not shown an empty board', async ({ page }) => {
    // Since the server gives console tokens only to ED staff and organisation admins (auth.service), a
    // crew member is refused at sign-in with its message and stays on the form.
    await signInToConsole(page, users.medic3.username);
    await expect(page.getByText(serverMessages.notHospitalStaff)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByText(users.medic3.displayName)).toBeHidden();
  });
});
