import { expect, test } from '@playwright/test';
import { messages } from '@inbound/contract';
import { atPath, logOut, setSwitch, signInToStart, snap } from '../support/crew';
import { teams, users } from '../support/demo';

test.describe('logout', () => {
  test('asks first; Cancel stays, Yes returns to / and a reload stays there', async ({ page }, testInfo) => {
    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');

    await page.getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await expect(dialog).toContainText(messages.logoutConfirm);
    await snap(page, testInfo, '05-logout-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(atPath('/start'));

    await logOut(page);
    await page.reload();
    await expect(page).toHaveURL(atPath('/'));
    await page.goto('/start');
    await expect(page, 'the session is gone, not just hidden').toHaveURL(atPath('/'));
  });
});

test.describe('auto-logout', () => {
  test('fires at the shift end: the alert, then the login screen', async ({ page }) => {
    // Fake timers from the first document on; time flows normally until the test jumps it.
    await page.clock.install();
    await signInToStart(page, users.medic1.username, teams.riverside, 'Ambulance 5');

    await page.goto('/shift');
    await expect(page.getByRole('heading', { name: messages.autoLogoutTitle })).toBeVisible();
    await expect(page.getByText(messages.autoLogoutHelp)).toBeVisible();
    await setSwitch(page, 'Auto Logout', true);

    // Shift end two minutes from the page's clock (at least a minute ahead after HH:mm rounding).
    const pageNow = await page.evaluate(() => Date.now());
    const end = new Date(pageNow + 2 * 60_000);
    const hhmm = `${String(end.getUTCHours()).padStart(2, '0')}:${String(end.getUTCMinutes()).padStart(2, '0')}`;
    await page.getByLabel('Shift ends at').fill(hhmm);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(atPath('/start'));
    await expect(page.getByText(messages.chooseTime)).toBeHidden();

    await page.clock.fastForward('03:00');
    await page.clock.runFor(6_000); // one more 5 s check, whatever its phase

    await expect(page.getByRole('alertdialog')).toContainText(messages.autoLogoutReached);
    await expect(page).toHaveURL(atPath('/'));
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await page.goto('/start');
    await expect(page).toHaveURL(atPath('/'));
  });

  test('switching it off shows Choose Time on the start screen', async ({ page }) => {
    await signInToStart(page, users.medic1.username, teams.lakeside, 'Rescue 7');
    await page.goto('/shift');
    await setSwitch(page, 'Auto Logout', false);
    await expect(page.getByLabel('Shift ends at')).toBeHidden();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(atPath('/start'));
    await expect(page.getByText(messages.chooseTime)).toBeVisible();
  });
});
