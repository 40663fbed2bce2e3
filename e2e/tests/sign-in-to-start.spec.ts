import { expect, test } from '@playwright/test';
import { messages } from '@inbound/contract';
import { atPath, chooseTeam, loginForm, snap } from '../support/crew';
import { demoPassword, teams, trucks, users } from '../support/demo';

test.describe('crew sign-in to the start screen', () => {
  test('medic1 signs in, chooses Riverside EMS and a truck, and sees the start screen @tablet', async ({
    page,
  }, testInfo) => {
    await page.goto('/');
    await snap(page, testInfo, '01-login');

    const form = loginForm(page);
    await form.username.fill(users.medic1.username);
    await form.password.fill(demoPassword(users.medic1.username));
    await form.submit.click();

    await expect(page).toHaveURL(atPath('/team-selection'));
    await expect(page.getByRole('heading', { name: messages.chooseTeam })).toBeVisible();
    for (const name of Object.values(teams)) {
      await expect(page.getByRole('radio', { name, exact: true })).toBeVisible();
    }
    await snap(page, testInfo, '02-team-selection');

    await chooseTeam(page, teams.riverside);
    await expect(page.getByRole('heading', { name: messages.chooseTruck })).toBeVisible();
    for (const name of trucks.riverside) {
      await expect(page.getByRole('radio', { name, exact: true })).toBeVisible();
    }
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await snap(page, testInfo, '03-truck-selection');

    await page.getByRole('radio', { name: 'Medic 1', exact: true }).check();
    await expect(next).toBeEnabled();
    await next.click();

    await expect(page).toHaveURL(atPath('/start'));
    await expect(page.getByText('Welcome')).toBeVisible();
    await expect(page.getByText(users.medic1.displayName)).toBeVisible();
    // The rows of spec §2; medic1 has aiEnhancedProtocols on, so Protocols shows too.
    for (const row of ['Shift Ends', 'Team', 'Truck', 'Case Transfer', 'Protocols']) {
      await expect(page.getByText(row, { exact: true })).toBeVisible();
    }
    await expect(page.getByText(teams.riverside)).toBeVisible();
    await expect(page.getByText('Medic 1', { exact: true })).toBeVisible();
    await expect(page.getByText(messages.tapToReceiveCase)).toBeVisible();
    await expect(page.getByText(messages.askQuestion)).toBeVisible();
    await expect(page.getByText(messages.tagline)).toBeVisible();
    await expect(page.getByRole('button', { name: messages.startCase })).toBeVisible();
    await snap(page, testInfo, '04-start');
  });

  test('Hilltop Volunteer Ambulance is listed but cannot be chosen', async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.username.fill(users.medic1.username);
    await form.password.fill(demoPassword(users.medic1.username));
    await form.submit.click();
    await expect(page).toHaveURL(atPath('/team-selection'));

    const hilltop = page.getByRole('radio', { name: teams.hilltop, exact: true });
    await expect(hilltop).toBeVisible();
    await expect(hilltop).toBeDisabled();
    await page.getByText(teams.hilltop, { exact: true }).click({ force: true });
    await expect(hilltop).not.toBeChecked();

    // Nothing chosen: Next is disabled, and a tap on it says why (spec §2) and stays on the list.
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await next.click({ force: true });
    await expect(page.getByRole('alertdialog')).toContainText(messages.mustSelectTeam);
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(atPath('/team-selection'));
  });

  test('medic2 sees only Riverside EMS', async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.username.fill(users.medic2.username);
    await form.password.fill(demoPassword(users.medic2.username));
    await form.submit.click();
    await expect(page).toHaveURL(atPath('/team-selection'));
    await expect(page.getByRole('radio')).toHaveCount(1);
    await expect(page.getByRole('radio', { name: teams.riverside, exact: true })).toBeEnabled();
  });
});
