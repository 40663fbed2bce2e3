import { expect, test, type Page } from '@playwright/test';
import { messages } from '@inbound/contract';
import { axeViolations, describeViolations, type ScreenViolation } from '../support/axe';
import { chooseComplaint, startCase } from '../support/cases';
import { signInToConsole } from '../support/console';
import { atPath, signIn } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';

// Issue 16, item 10: axe-core finds nothing on any screen of either app, at phone, tablet and desktop
// sizes. One walk per app: each screen is reached as a person would, then checked at each size in turn
// (the page resized, not walked again: three walks per app made this the slowest file in CI, 5.4 min).
// The two walks run side by side.
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

test.describe.configure({ mode: 'parallel' });
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

/** Scans the screen at each size, then puts the phone size back for the rest of the walk. */
async function check(page: Page, found: ScreenViolation[], screen: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    found.push(...(await axeViolations(page, `${screen} (${size.name})`)));
  }
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
}

test('crew app: no axe violations on any screen at any size', async ({ page }) => {
  test.setTimeout(240_000);
  const found: ScreenViolation[] = [];
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await check(page, found, '/');
  await page.goto('/protocol');
  // Its own heading: index.html's static login screen, painted first, has an h1 too.
  await expect(page.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  await check(page, found, '/protocol (signed out)');

  await signIn(page, users.medic1.username);
  await expect(page).toHaveURL(atPath('/team-selection'));
  await expect(page.getByRole('heading', { level: 1, name: messages.chooseTeam })).toBeVisible();
  await check(page, found, '/team-selection');
  await page.getByRole('radio', { name: teams.riverside, exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('radio', { name: 'Medic 1', exact: true })).toBeVisible();
  await check(page, found, '/truck-selection');
  await page.getByRole('radio', { name: 'Medic 1', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('button', { name: 'START CASE' })).toBeVisible();
  await check(page, found, '/start');

  for (const [path, heading] of [
    ['/settings', 'Settings'],
    ['/shift', 'Auto Logout'],
    ['/security', 'Security'],
    ['/changePassword', 'Change Password'],
    ['/caseFeedbackSettings', 'Case Feedback'],
    ['/protocol', 'Protocols'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(atPath(path));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await check(page, found, path);
  }

  await page.goto('/start');
  await page.getByRole('button', { name: /^Message Center/ }).click();
  await expect(page.getByRole('dialog', { name: 'Message Center' })).toBeVisible();
  await check(page, found, '/start Message Center');
  await page.keyboard.press('Escape');

  await startCase(page);
  await check(page, found, '/case complaints list');
  await chooseComplaint(page, 'Stroke', 'Onset');
  await check(page, found, '/case Stroke tags');
  await page
    .getByRole('region', { name: 'Onset' })
    .getByRole('button', { name: /^Last Known Well/ })
    .click();
  await expect(page.getByRole('dialog', { name: 'Last Known Well' })).toBeVisible();
  await check(page, found, '/case Last Known Well dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'MEDIA' }).click();
  await expect(page.getByRole('button', { name: /^Photo/ })).toBeVisible();
  await check(page, found, '/case MEDIA');
  await page.getByRole('tab', { name: 'CHAT' }).click();
  await expect(page.getByRole('textbox', { name: 'Write a message' })).toBeVisible();
  await check(page, found, '/case CHAT');
  await page.getByRole('button', { name: 'Patient Info' }).click();
  await expect(page.getByRole('dialog', { name: 'Patient Info' })).toBeVisible();
  await check(page, found, '/case Patient Info');

  expect(found, describeViolations(found)).toEqual([]);
});

test('hospital console: no axe violations on any screen at any size', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const found: ScreenViolation[] = [];
  await page.goto('/hospital/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await check(page, found, 'console sign-in');
  await signInToConsole(page, users.ed1.username);
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await check(page, found, 'console board');
  const card = page.getByTestId('case-card').first();
  if (await card.isVisible()) {
    await card.click();
    await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
    await check(page, found, 'console case detail');
  }

  // The administration, as an organisation admin in a browser of their own.
  const adminContext = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const admin = await adminContext.newPage();
  await signInToConsole(admin, users.admin.username);
  await expect(admin.getByRole('navigation', { name: 'Administration' })).toBeVisible();
  for (const section of ['agencies', 'hospitals', 'complaint-sets', 'users', 'audit-log', 'protocol-library']) {
    await admin.goto(`/hospital/admin/${section}`);
    await expect(admin.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check(admin, found, `console admin ${section}`);
  }
  await adminContext.close();

  expect(found, describeViolations(found)).toEqual([]);
});
