/**
 * Issue 17: a security key as the console's second factor, through the console in Chromium with a
 * virtual authenticator (CDP WebAuthn: internal transport, user verification). ed1 adds a named key on
 * the sign-in security page (the same device twice is refused), signs out, signs in with the key; adds a
 * second device's key and removes it; signing in from that device is then refused. The organisation admin then clears ed1's second
 * factors (lost phone) from the users page and checks the hash chains on the security audit page.
 * The page is opened at http://localhost:PORT: WebAuthn refuses an IP address as relying party, and
 * without PUBLIC_URL the server's relying party is localhost:PORT (decision 0032).
 * On a server of its own: while ed1 has a key, the shared server's other tests could not sign ed1 in
 * with the password alone.
 * Screenshots: e2e/.artifacts/screens/{project}-webauthn-*.png.
 */
import { expect, test as base, type Browser, type Page } from '@playwright/test';
import { openAccountMenu } from '../support/console';
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

let origin = '';
test.beforeEach(({ privateServer }) => {
  origin = privateServer.url.replace('127.0.0.1', 'localhost');
});

const desktop = async (browser: Browser) =>
  (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' })).newPage();

async function signIn(page: Page, username: string) {
  await page.goto(`${origin}/hospital/`);
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(demoPassword(username));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function addKey(page: Page, name: string) {
  const form = page.getByRole('form', { name: 'Add a security key' });
  await form.getByLabel(/Name for this key/).fill(name);
  await form.getByLabel('Password').fill(demoPassword(users.ed1.username));
  await form.getByRole('button', { name: 'Add security key' }).click();
}

test('ED staff sign in with a security key; a key that is not registered is refused; the admin clears them', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await desktop(browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  /** A platform authenticator with user verification, as a PC's fingerprint reader or PIN. */
  const addAuthenticator = async () =>
    (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      })
    ).authenticatorId;
  const first = await addAuthenticator();

  // ---- enrol a named key --------------------------------------------------------------------------
  await signIn(page, users.ed1.username);
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await (await openAccountMenu(page)).getByRole('link', { name: 'Sign-in security' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in security' })).toBeVisible();
  await addKey(page, 'Triage PC');
  // The first second factor comes with recovery codes, shown once.
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.locator('.security-keys li')).toHaveCount(1);
  // The same device again: the browser refuses (the server lists it as excluded).
  await addKey(page, 'Same PC again');
  await expect(page.getByRole('alert')).toContainText('already registered');
  await expect(page.locator('.security-keys li')).toHaveCount(1);

  // ---- sign out, sign in with the key ---------------------------------------------------------------
  await page.getByRole('link', { name: 'Back to the board' }).click();
  await (await openAccountMenu(page)).getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, users.ed1.username);
  const useKey = page.getByRole('button', { name: 'Use security key or this device' });
  await expect(useKey).toBeVisible();
  await snap(page, testInfo, 'webauthn-signin');
  await useKey.click();
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();

  // ---- another device's key added, then removed ----------------------------------------------------
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first });
  await addAuthenticator();
  await (await openAccountMenu(page)).getByRole('link', { name: 'Sign-in security' }).click();
  await addKey(page, 'Spare key');
  await expect(page.locator('.security-keys li')).toHaveCount(2);
  await snap(page, testInfo, 'webauthn-keys');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.locator('.security-keys li', { hasText: 'Spare key' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('.security-keys li')).toHaveCount(1);
  await expect(page.locator('.security-keys')).toContainText('Triage PC');

  // ---- the removed key no longer signs in: refused, still at the sign-in ---------------------------
  await page.getByRole('link', { name: 'Back to the board' }).click();
  await (await openAccountMenu(page)).getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, users.ed1.username);
  await useKey.click();
  await expect(page.getByRole('alert')).toContainText(/security key/i);
  await expect(page.getByRole('heading', { level: 1, name: 'Hospital console' })).toBeVisible();
  await snap(page, testInfo, 'webauthn-refused');
  await page.context().close();

  // ---- the admin clears ed1's second factors and checks the chains --------------------------------
  const admin = await desktop(browser);
  await signIn(admin, users.admin.username);
  await expect(admin.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  await admin.getByRole('button', { name: `Edit ${users.ed1.displayName}` }).click();
  await admin.getByRole('button', { name: 'Clear second factors…' }).click();
  await admin.getByRole('button', { name: 'Clear second factors', exact: true }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Second factors cleared' })).toBeVisible();
  await admin.getByRole('link', { name: 'Security audit' }).click();
  await expect(admin.getByRole('heading', { level: 2, name: 'Security audit' })).toBeVisible();
  await admin.getByLabel('User').selectOption({ label: `${users.ed1.displayName} (${users.ed1.username})` });
  await expect(admin.getByRole('table', { name: 'Security audit entries' })).toContainText('mfa.webauthnAdded');
  await admin.getByRole('button', { name: 'Check the hash chains now' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'chains hold' })).toBeVisible();
  await snap(admin, testInfo, 'webauthn-audit-trail');
  await admin.context().close();

  // ---- ed1 signs in with the password alone again (the demo organisation does not require MFA) -----
  const again = await desktop(browser);
  await signIn(again, users.ed1.username);
  await expect(again.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await again.context().close();
});
