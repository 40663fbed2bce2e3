/**
 * Issue 5 item 8, people: the organisation admin invites an ED nurse for Riverside's hospital and reads
 * the one-time password once; the nurse signs in with it in a browser of their own, must choose a
 * password first, then sees the board live. The admin disables the account: the nurse's console is
 * signed out within seconds (the server closes the live connection, the console notices). The audit
 * log shows both changes. Screenshots: e2e/.artifacts/screens/{project}-admin-users-*.png.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser } from '@playwright/test';
import { signInToConsole } from '../support/console';
import { snap } from '../support/crew';
import { hospitals, users } from '../support/demo';

const desktop = (browser: Browser) =>
  browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });

test('admin invites an ED nurse, who changes the one-time password and sees the board; disabling signs them out', async ({
  browser,
}, testInfo) => {
  const username = `nurse-${randomBytes(3).toString('hex')}`;
  const displayName = 'Dana Reyes';
  const ownPassword = 'riverside-night-shift-2026';

  // ---- the admin: no ED of their own, so the console opens on the administration ----------------
  const adminContext = await desktop(browser);
  const admin = await adminContext.newPage();
  await signInToConsole(admin, users.admin.username);
  await expect(admin.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  await expect(admin).toHaveURL(/\/hospital\/admin\/users$/);
  await expect(admin.getByRole('navigation', { name: 'Administration' }).getByRole('link')).toHaveText([
    'Agencies',
    'Hospitals',
    'Complaint sets',
    'Users',
    'Audit log',
    'Security audit',
    'Protocol questions',
    'Teams',
    'Protocol library',
  ]);
  await expect(admin.getByRole('table')).toContainText(users.ed1.displayName);

  await admin.getByRole('button', { name: 'Invite user' }).click();
  await admin.getByLabel('Username').fill(username);
  await admin.getByLabel('Full name').fill(displayName);
  await admin.getByRole('radio', { name: /ED staff/ }).check();
  await admin.getByRole('checkbox', { name: hospitals.riversideRegional }).check();
  await snap(admin, testInfo, 'admin-users-invite');
  await admin.getByRole('button', { name: 'Invite and create one-time password' }).click();
  const otpField = admin.getByTestId('one-time-password');
  await expect(otpField).toHaveText(/^[a-z2-9]{4}(-[a-z2-9]{4}){4}$/);
  const oneTimePassword = (await otpField.textContent())!.trim();
  await expect(admin.getByRole('heading', { name: `Invited ${displayName} (${username})` })).toBeVisible();
  await snap(admin, testInfo, 'admin-users-one-time-password');
  await admin.getByRole('button', { name: 'Done' }).click();
  await expect(otpField).toHaveCount(0);

  // ---- the nurse, in a browser of their own ----------------------------------------------------------
  const nurseContext = await desktop(browser);
  const nurse = await nurseContext.newPage();
  await signInToConsole(nurse, username, oneTimePassword);
  await expect(nurse.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await snap(nurse, testInfo, 'admin-users-choose-password');
  await nurse.getByLabel('One-time password').fill(oneTimePassword);
  await nurse.getByLabel('New password', { exact: true }).fill(ownPassword);
  await nurse.getByLabel('New password again').fill(ownPassword);
  await nurse.getByRole('button', { name: 'Save password and continue' }).click();
  await expect(nurse.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(nurse.getByTestId('connection')).toHaveText(/Live/);
  await expect(nurse.getByText(displayName, { exact: true })).toBeVisible();

  // ---- the admin disables the account ----------------------------------------------------------------
  await admin.getByLabel('Search users').fill(username);
  await expect(admin.getByRole('table').getByRole('row')).toHaveCount(2);
  await admin.getByRole('button', { name: `Edit ${displayName}` }).click();
  await expect(admin.getByText('Must change password')).toHaveCount(0);
  await admin.getByRole('button', { name: 'Disable account…' }).click();
  await snap(admin, testInfo, 'admin-users-confirm-disable');
  const disabledAt = Date.now();
  await admin.getByRole('button', { name: `Disable ${username}` }).click();
  await expect(admin.getByRole('table').getByText('Disabled')).toBeVisible();

  // The nurse's console is signed out within seconds, without them doing anything.
  await expect(nurse.getByRole('heading', { level: 1, name: 'Hospital console' })).toBeVisible({ timeout: 10_000 });
  await expect(nurse.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const signedOutAfterMs = Date.now() - disabledAt;
  testInfo.annotations.push({ type: 'signed out after (ms)', description: String(signedOutAfterMs) });
  expect(signedOutAfterMs).toBeLessThan(10_000);
  // And cannot sign in again.
  await signInToConsole(nurse, username, ownPassword);
  await expect(nurse.getByRole('alert')).toHaveText('This account is disabled. Contact your administrator.');

  // ---- the audit log -------------------------------------------------------------------------------
  await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(admin.getByRole('heading', { level: 2, name: 'Audit log' })).toBeVisible();
  const log = admin.getByRole('table', { name: 'Audit log entries' });
  await expect(log).toContainText(`Disabled ${displayName} (${username}) (1 session ended)`);
  await expect(log).toContainText(`Invited ${displayName} (${username}) as ED staff of ${hospitals.riversideRegional}`);
  await admin.getByLabel('About user').selectOption({ label: `${displayName} (${username})` });
  await expect(log.getByRole('row')).toHaveCount(3);
  const disableRow = log.getByRole('row').filter({ hasText: `Disabled ${displayName} (${username})` });
  await expect(disableRow).toContainText(users.admin.displayName);
  await disableRow.getByText('Before and after').click();
  await snap(admin, testInfo, 'admin-users-audit-log');
  expect(await admin.content()).not.toContain(oneTimePassword);

  await nurseContext.close();
  await adminContext.close();
});
