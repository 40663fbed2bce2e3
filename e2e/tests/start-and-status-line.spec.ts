import { expect, test, type Locator } from '@playwright/test';
import { signInToStart, snap } from '../support/crew';
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
      test.setTimeout(60_000);
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
