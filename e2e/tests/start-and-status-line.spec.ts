import { expect, test, type Locator } from '@playwright/test';
import { atPath, loginForm, logOut, signInToStart, snap } from '../support/crew';
import { chooseHospital, startCase } from '../support/cases';
import { hospitals, teams, users } from '../support/demo';

// Issue 16, items 7 and 11: Start draws the crew's own screen (not a spinner) at a phone's and a 7"
// tablet's size; on the case screen the status line says where the case went in full, and the "location
// is off" notice is the whole explanation once, then one short line.
const VIEWPORTS = [
  { name: 'phone 390×844', viewport: { width: 390, height: 844 } },
  { name: 'tablet 600×960', viewport: { width: 600, height: 960 } },
] as const;

/** Whether any part of the element's text is cut off (an ellipsis, or hidden overflow). */
async function truncated(locator: Locator): Promise<string[]> {
  return locator.evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll('*'))]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
      .map((el) => `${el.className}: "${el.textContent ?? ''}"`),
  );
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(name, () => {
    // No geolocation permission: the device gives no position, as when a crew refused it.
    test.use({ viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

    test(`Start, then the case's status line in full and the location notice short once seen (${name})`, async ({
      page,
    }, testInfo) => {
      await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
      // A first open at /start: the crew's own screen from the stored session.
      await page.goto('/start');
      await expect(page.getByText(`Welcome, ${users.medic1.displayName}`)).toBeVisible();
      await expect(page.getByRole('link', { name: `Team ${teams.riverside}` })).toBeVisible();
      await expect(page.getByRole('button', { name: 'START CASE' })).toBeInViewport();
      await snap(page, testInfo, `start-${viewport.width}x${viewport.height}`, { fullPage: false });

      await startCase(page);
      await chooseHospital(page, hospitals.riversideRegional);
      const sent = page.getByTestId('delivery-state');
      await expect(sent).toContainText(`Sent to ${hospitals.riversideRegional}`, { timeout: 15_000 });
      expect(await truncated(page.locator('.case-status__line')), 'status line cut off').toEqual([]);
      const notice = page.getByRole('status').filter({ hasText: /^Location is off: the hospital sees no ETA\./ });
      await expect(notice).toBeVisible();
      await snap(page, testInfo, `case-location-off-first-${viewport.width}x${viewport.height}`, { fullPage: false });

      // The next case screen (here: the app opened again) has the short notice, on one line.
      await page.reload();
      const short = page.getByRole('status').filter({ hasText: /^Location off: no ETA for the ED$/ });
      await expect(short).toBeVisible();
      const lineHeight = await short.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
      expect((await short.boundingBox())?.height ?? 0).toBeLessThanOrEqual(lineHeight + 8);
      expect(await truncated(short), 'short notice cut off').toEqual([]);
      await expect(page.getByTestId('delivery-state')).toContainText(`Sent to ${hospitals.riversideRegional}`);
      expect(await truncated(page.locator('.case-status__line')), 'status line cut off').toEqual([]);
      await snap(page, testInfo, `case-location-off-seen-${viewport.width}x${viewport.height}`, { fullPage: false });
    });
  });
}

// Start's static shell in start.html (decision 0043): drawn before the app's code has run, START CASE and
// the rows where Start draws them, and a tap on START CASE then is not lost: the case starts once the app is in.
for (const { name, viewport } of VIEWPORTS) {
  test.describe(name, () => {
    test.use({ viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

    for (const tapped of [false, true]) {
      test(`Start's shell: ${tapped ? 'a tap on START CASE before the app starts a case' : 'the app draws Start where the shell did'} (${name})`, async ({
        page,
      }, testInfo) => {
        await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
        await expect(page.getByRole('region', { name: 'Hospital status' })).toBeVisible();
        // The page from the server, not the service worker's precache (whose navigations get index.html).
        await page.evaluate(async () => {
          for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
        });
        // The app's entry chunk held back: until it is let through, the page is the shell alone.
        let letThrough!: () => void;
        const held = new Promise<void>((resolve) => (letThrough = resolve));
        await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto('/start', { waitUntil: 'commit' });
        const shellButton = page.locator('[data-start-shell-action="startCase"]');
        await expect(shellButton).toHaveText('START CASE');
        await expect(shellButton).toBeInViewport({ ratio: 1 });
        const boxes = () =>
          page.evaluate(() =>
            ['.top-bar', '.welcome', '.menu__label', '.button--start'].map((selector) => {
              const r = document.querySelector(selector)!.getBoundingClientRect();
              return [selector, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
            }),
          );
        const shell = await boxes();
        if (tapped) {
          await shellButton.tap();
          await expect(shellButton).toHaveAttribute('aria-busy', 'true');
          letThrough();
          await expect(page).toHaveURL(atPath('/case'), { timeout: 15_000 });
          return;
        }
        await snap(page, testInfo, `start-shell-${viewport.width}x${viewport.height}`, { fullPage: false });
        letThrough();
        await expect(page.getByText(`Welcome, ${users.medic1.displayName}`)).toBeVisible();
        await expect(shellButton).toHaveCount(0);
        // Nothing moves. On a tablet Start fits the screen and draws START CASE under the hospital statuses,
        // higher than a phone's pinned one: the shell draws it there too, from the room Start left at its
        // last start on this screen size (signInToStart's).
        expect(await boxes()).toEqual(shell);
        await expect(page).toHaveURL(atPath('/start'));
      });
    }
  });
}

// The installed app opens at / (its start_url), and a reload keeps the route: until the stored session is
// decrypted the page is index.html's static screen. For a crew signed in, a splash (the brand, no sign-in
// card: build/launchSplash.ts), not what reads as a logout; signed out, the sign-in screen's shell.
test.describe('phone 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

  test('opening the app at /: a splash while signed in, the sign-in card once signed out', async ({
    page,
  }, testInfo) => {
    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
    // The app's entry chunk held back at each open: until it is let through, the page is index.html's
    // static screen. From the server, not the service worker's precache (whose fetches are not routed).
    let letThrough!: () => void;
    let held!: Promise<void>;
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const open = async () => {
      await page.evaluate(async () => {
        for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
      });
      held = new Promise<void>((resolve) => (letThrough = resolve));
      await page.goto('/', { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { name: 'Inbound' })).toBeVisible();
    };
    const card = page.locator('.login__form-shell');

    await open();
    await expect(card).toBeAttached();
    await expect(card).toBeHidden();
    await snap(page, testInfo, 'launch-splash-signed-in', { fullPage: false });
    letThrough();
    await expect(page.getByText(`Welcome, ${users.medic1.displayName}`)).toBeVisible();
    await expect(page).toHaveURL(atPath('/start'));

    await logOut(page);
    await open();
    await expect(card).toBeVisible();
    letThrough();
    await expect(loginForm(page).username).toBeVisible();
  });
});

// The closed case's hand-over (decision 0038): a crew waiting for the ED to accept the patient reads it on
// Start without scrolling, and it is not under the pinned START CASE, which stays in thumb reach at the
// bottom (issue 16).
const ST_MARYS = "St. Mary's Hospital";
const HANDOFF_VIEWPORTS = [...VIEWPORTS, { name: 'tablet landscape 960×600', viewport: { width: 960, height: 600 } }];

for (const { name, viewport } of HANDOFF_VIEWPORTS) {
  test.describe(name, () => {
    test.use({ viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

    test(`Start shows "Waiting for handoff" above the fold with START CASE (${name})`, async ({ page }, testInfo) => {
      await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 2');
      await startCase(page);
      // Riverside Regional asks for the patient's name before a close; St. Mary's does not.
      await chooseHospital(page, ST_MARYS);
      await page.getByRole('button', { name: 'Close Case' }).click();
      await page.getByRole('alertdialog', { name: 'Close Case' }).getByRole('button', { name: 'Yes' }).click();
      await expect(page).toHaveURL(atPath('/start'));
      // St. Mary's takes case feedback: the crew answers later.
      const feedback = page.getByRole('dialog', { name: 'Case Feedback' });
      await feedback.getByRole('button', { name: 'Close' }).click();
      await expect(feedback).toBeHidden();

      const waiting = page.getByTestId('closed-handoff-waiting');
      await expect(waiting).toHaveText(`Waiting for handoff at ${ST_MARYS}`, { timeout: 15_000 });
      const startButton = page.getByRole('button', { name: 'START CASE' });
      await snap(page, testInfo, `start-handoff-waiting-${viewport.width}x${viewport.height}`, { fullPage: false });
      await expect(waiting).toBeInViewport({ ratio: 1 });
      await expect(startButton).toBeInViewport({ ratio: 1 });
      // Not hidden behind the pinned button's bar: what is drawn at the line's corners is the line itself.
      expect(await drawnOnTop(waiting), 'hand-over line covered').toBe(true);
      // Thumb reach: START CASE in the lower part of the screen on a phone and a portrait tablet.
      const box = (await startButton.boundingBox())!;
      if (viewport.height > viewport.width) expect(box.y + box.height).toBeGreaterThan(viewport.height * 0.75);
    });
  });
}

/**
 * Whether the element is what the browser hit-tests across it (nothing else drawn over it): at its middle
 * and a quarter in from each edge (not at the corners, which its rounded frame clips).
 */
async function drawnOnTop(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const [x, y, dx, dy] = [r.left + r.width / 2, r.top + r.height / 2, r.width / 4, r.height / 4];
    const points = [
      [x, y],
      [x - dx, y],
      [x + dx, y],
      [x, y - dy],
      [x, y + dy],
    ] as const;
    return points.every(([px, py]) => {
      const hit = document.elementFromPoint(px, py);
      return hit !== null && el.contains(hit);
    });
  });
}
