import { expect, test } from '@playwright/test';
import { messages, serverMessages } from '@inbound/contract';
import { atPath, loginForm } from '../support/crew';
import { users } from '../support/demo';

test.describe('login', () => {
  test('asks for the username and the password, and clears each message on typing', async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.submit.click();
    await expect(page.getByText(messages.fillUsername, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(atPath('/'));

    await form.username.fill(users.medic1.username);
    await expect(page.getByText(messages.fillUsername, { exact: true })).toBeHidden();
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeVisible();
    await form.password.fill('x');
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeHidden();
  });

  test("shows the server's message for a wrong password", async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.username.fill(users.medic1.username);
    await form.password.fill('not-the-password');
    await form.submit.click();
    await expect(page.getByRole('alert')).toHaveText(serverMessages.invalidCredentials);
    await expect(page).toHaveURL(atPath('/'));
    await expect(form.submit).toBeEnabled();
  });

  test('does not show the Feedback link on /', async ({ page }) => {
    await page.goto('/');
    await expect(loginForm(page).submit).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Feedback' }).or(page.getByRole('button', { name: 'Feedback' })),
    ).toHaveCount(0);
  });
});
