import { chromium, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messages } from '@inbound/contract';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { atPath, serviceWorkerInControl, signInToStart } from '../support/crew';
import { teams, users } from '../support/demo';

// Issue 3, Installability: the manifest and the service worker pass Chromium's installability check, and
// a signed-in crew opens the app and fills a case with the network off. Chromium reports every incognito
// context as not installable ("in-incognito"), and Playwright's default contexts are incognito: these
// tests launch a persistent profile of their own.
async function openPersistent(baseURL: string | undefined) {
  const profile = mkdtempSync(path.join(tmpdir(), 'inbound-pwa-'));
  const context = await chromium.launchPersistentContext(profile, {
    baseURL,
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    locale: 'en-US',
    timezoneId: 'UTC',
    viewport: { width: 1024, height: 768 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}

test('the crew app is installable and opens and works a case offline', async ({ baseURL }) => {
  const { context, page, close } = await openPersistent(baseURL);
  try {
    await page.goto('/');
    // The service worker is registered after the first render and claims the page on first install.
    await serviceWorkerInControl(page);

    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toBe(new URL('/manifest.webmanifest', baseURL).href);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name: 'Inbound', display: 'standalone', start_url: '/' });
    await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);

    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
    // The team and complaint set reach the service worker's runtime cache (NetworkFirst).
    await expect
      .poll(() =>
        page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('inbound-runtime-'))),
      )
      .toEqual(expect.arrayContaining(['inbound-runtime-teams', 'inbound-runtime-complaint-sets']));

    await context.setOffline(true);
    // Offline, /start is answered by the service worker with start.html, Start's static shell, as the server
    // answers it online (not index.html's login shell as a splash before Start).
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    expect(await reloaded!.text()).toContain('data-start-shell-action');
    await expect(page).toHaveURL(atPath('/start'));
    await page.getByRole('button', { name: 'START CASE' }).click();
    await expect(page.getByRole('heading', { name: /^Case / })).toBeVisible();
    await expect(page.getByText(messages.offline, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: /^Stroke Priority \d$/ }).click();
    const female = page.getByRole('button', { name: 'Female', exact: true });
    await female.click();
    await expect(female).toHaveAttribute('aria-pressed', 'true');
    // A deep link offline: the service worker answers navigations with the cached index.html.
    await page.goto('/team-selection');
    await expect(page).toHaveURL(atPath('/case'));
    await expect(page.getByRole('button', { name: 'Female', exact: true })).toHaveAttribute('aria-pressed', 'true');

    // Back online the outbox delivers the case (a sync tag inbound-case-{id} is registered where supported).
    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ })).toBeVisible({ timeout: 15_000 });
  } finally {
    await close();
  }
});

test('logout asks the service worker to clear its runtime cache, and keeps the app shell', async ({ baseURL }) => {
  const { page, close } = await openPersistent(baseURL);
  try {
    await page.goto('/');
    await serviceWorkerInControl(page);
    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
    const cacheNames = () => page.evaluate(() => caches.keys());
    await expect.poll(cacheNames).toContain('inbound-runtime-teams');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button', { name: 'Yes' }).click();
    await expect(page).toHaveURL(atPath('/'));
    await expect
      .poll(async () => (await cacheNames()).filter((name) => name.startsWith('inbound-runtime-')))
      .toEqual([]);
    expect((await cacheNames()).some((name) => name.startsWith('workbox-precache'))).toBe(true);
  } finally {
    await close();
  }
});
