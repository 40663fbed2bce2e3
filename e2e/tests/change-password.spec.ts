import { expect, test as base } from '@playwright/test';
import { messages, serverMessages } from '@inbound/contract';
import { atPath, chooseTeam, chooseTruck, loginForm, logOut, signIn, snap } from '../support/crew';
import { demoPassword, teams, users } from '../support/demo';
import { startPrivateServer, type RunningServer } from '../support/server';

// Changing a password changes the shared demo data, so this file runs against a server of its own.
const test = base.extend<object, { privateServer: RunningServer }>({
  privateServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured
    async ({}, use) => {
      const server = await startPrivateServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});
test.use({ baseURL: async ({ privateServer }, use) => use(privateServer.url) });

test('change password: field messages, server messages, then the new password works', async ({ page }, testInfo) => {
  const { username } = users.medic2;
  const newPassword = 'Harbor-lights-at-dawn-7';

  await signIn(page, username);
  await chooseTeam(page, teams.riverside);
  await chooseTruck(page, 'Medic 2');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(atPath('/settings'));
  await page
    .getByRole('link', { name: 'Change Password' })
    .or(page.getByRole('button', { name: 'Change Password' }))
    .click();
  await expect(page).toHaveURL(atPath('/changePassword'));

  const current = page.getByLabel('Current Password', { exact: true });
  const next = page.getByLabel('New Password', { exact: true });
  const verify = page.getByLabel('Confirm New Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Change Password' });

  // Each field names its own problem (tied to it, so a screen reader reads it with the field); the call is
  // still made (spec §5), so the server's own message may show above the form too.
  await submit.click();
  await expect(current).toHaveAccessibleDescription(messages.fillCurrentPassword);
  await expect(next).toHaveAccessibleDescription(messages.fillNewPassword);
  await expect(verify).toHaveAccessibleDescription(messages.fillNewPasswordAgain);
  await snap(page, testInfo, '07-change-password-errors');

  await current.fill(demoPassword(username));
  await expect(current).toHaveAccessibleDescription('');
  await expect(next).toHaveAccessibleDescription(messages.fillNewPassword);
  await next.fill(newPassword);
  await verify.fill(`${newPassword}x`);
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText(serverMessages.passwordsDoNotMatch);

  await current.fill('not-my-password');
  await verify.fill(newPassword);
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText(serverMessages.currentPasswordWrong);

  await current.fill(demoPassword(username));
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: serverMessages.passwordChanged })).toBeVisible();

  await page.goto('/start');
  await logOut(page);

  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(demoPassword(username));
  await form.submit.click();
  await expect(page.getByRole('alert')).toHaveText(serverMessages.invalidCredentials);

  await form.password.fill(newPassword);
  await form.submit.click();
  await expect(page).toHaveURL(atPath('/team-selection'));
});
