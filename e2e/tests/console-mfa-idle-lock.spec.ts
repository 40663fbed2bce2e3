/**
 * Issue 17 in the console: once the organisation requires two-step sign-in of ED staff, ed1's console
 * sign-in leads to the authenticator set-up (password → key → first code → recovery codes), then the
 * board. After 15 minutes without input the lock screen covers the board (nothing of it visible); a
 * wrong password is refused, the right one unlocks. Runs on a server of its own (it changes the demo
 * organisation). Screens: e2e/.artifacts/screens/*-mfa-*.png, *-idle-lock.png.
 */
import { createHmac } from 'node:crypto';
import { expect, test as base } from '@playwright/test';
import { authorizationHeader, CONSOLE_IDLE_LOCK_MS } from '@inbound/contract';
import { signInToConsole } from '../support/console';
import { snap } from '../support/crew';
import { demoPassword, hospitals, users } from '../support/demo';
import { startPrivateServer, type RunningServer } from '../support/server';

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

/** RFC 6238 with SHA-1, 6 digits, 30 s — what an authenticator app on the nurse's phone computes. */
function totp(base32: string, atMs = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32.replace(/\s|=/g, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

test('two-step sign-in set-up, then the idle lock hides the board until the password is given', async ({
  browser,
  privateServer,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'one console run is enough');
  const signIn = await fetch(`${privateServer.url}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      password: demoPassword('admin'),
      twiageClient: 'hospital',
      platform: 'web',
    }),
  });
  const { authorizationToken } = (await signIn.json()) as { authorizationToken: { token: string } };
  const turnOn = await fetch(`${privateServer.url}/v4/admin/security-settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: authorizationHeader(authorizationToken.token) },
    body: JSON.stringify({ mfaRequired: { edStaff: true, orgAdmin: false } }),
  });
  expect(turnOn.status).toBe(200);

  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await page.clock.install();
  await signInToConsole(page, users.ed1.username);

  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
  // The page offers a security key first (its own password field) and the authenticator app below it.
  const appForm = page.locator('form').filter({ hasText: 'authenticator app' });
  await appForm.getByLabel('Password').fill(demoPassword(users.ed1.username));
  await appForm.getByRole('button', { name: 'Continue' }).click();
  const key = (await page.locator('.totp-secret').textContent()) ?? '';
  expect(key.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  await snap(page, testInfo, 'mfa-key', { fullPage: false });
  await page.getByLabel('6-digit code').fill(totp(key));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await snap(page, testInfo, 'mfa-recovery-codes', { fullPage: false });
  await page.getByRole('button', { name: /I have saved them/ }).click();
  const board = page.getByRole('heading', { level: 1, name: hospitals.riversideRegional });
  await expect(board).toBeVisible();

  await page.clock.fastForward(CONSOLE_IDLE_LOCK_MS + 10_000);
  await expect(page.getByRole('dialog', { name: 'Console locked' })).toBeVisible();
  await expect(board).toBeHidden();
  await snap(page, testInfo, 'idle-lock', { fullPage: false });
  // A reload does not open the lock.
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Console locked' })).toBeVisible();
  await page.getByLabel('Password or authenticator code').fill('not-my-password');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('alert')).toHaveText('The current password is incorrect.');
  await page.getByLabel('Password or authenticator code').fill(demoPassword(users.ed1.username));
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('dialog', { name: 'Console locked' })).toBeHidden();
  await expect(board).toBeVisible();
  await context.close();
});
