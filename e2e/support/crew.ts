/**
 * Steps of the crew app's sign-in path, driven the way a medic drives it: by role and accessible name.
 * Every wait is on something the user sees (a heading, a URL), never on a timer.
 */
import { expect, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { messages } from '@inbound/contract';
import { demoPassword } from './demo';

export const SCREENS_DIR = path.resolve(import.meta.dirname, '../.artifacts/screens');

/**
 * Saves a screenshot as e2e/.artifacts/screens/{project}-{name}.png, for people to look at: the full page
 * by default; `fullPage: false` for screens with fixed bars (the case screen), which a full-page capture
 * draws in the middle of the page instead of where the medic sees them.
 */
export async function snap(page: Page, testInfo: TestInfo, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${testInfo.project.name}-${name}.png`), fullPage });
}

/**
 * What the case screen would make a crew scroll sideways to see, and the words that run past the edges of
 * their buttons (age and gender, the tabs, the complaints): both must be empty at every phone width.
 */
export async function offTheScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth > clientWidth) found.push(`the page scrolls sideways: ${scrollWidth} px in ${clientWidth}`);
    for (const button of document.querySelectorAll<HTMLElement>(
      '.age-gender button, .case-tabs__tab, .complaint-option',
    )) {
      const box = button.getBoundingClientRect();
      const style = getComputedStyle(button);
      const words = document.createRange();
      words.selectNodeContents(button);
      const text = words.getBoundingClientRect();
      const inside = [box.left + parseFloat(style.borderLeftWidth), box.right - parseFloat(style.borderRightWidth)];
      if (box.width > 0 && (text.left < inside[0]! - 0.5 || text.right > inside[1]! + 0.5))
        found.push(`"${button.textContent?.trim()}" runs past its button at ${clientWidth} px`);
    }
    return found;
  });
}

/**
 * Waits until the service worker controls the page: the first visit's worker claims it once installed,
 * and only then can it serve the app to an offline reload (on a loaded machine that took seconds).
 */
export async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 })
    .toBe(true);
}

/** An address's path, e.g. `/start`, for `toHaveURL`. */
export function atPath(pathname: string): (url: URL) => boolean {
  return (url) => url.pathname === pathname;
}

export function loginForm(page: Page) {
  return {
    username: page.getByLabel('Username or email'),
    password: page.getByLabel('Password', { exact: true }),
    submit: page.getByRole('button', { name: 'Login' }),
  };
}

/** Signs in from `/` and waits until the app has left the login screen. */
export async function signIn(page: Page, username: string, password = demoPassword(username)): Promise<void> {
  await page.goto('/');
  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(password);
  await form.submit.click();
  await expect(page).not.toHaveURL(atPath('/'));
}

export async function chooseTeam(page: Page, teamName: string): Promise<void> {
  await expect(page).toHaveURL(atPath('/team-selection'));
  await expect(page.getByRole('heading', { name: messages.chooseTeam })).toBeVisible();
  await page.getByRole('radio', { name: teamName, exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(atPath('/truck-selection'));
}

export async function chooseTruck(page: Page, truckName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: messages.chooseTruck })).toBeVisible();
  await page.getByRole('radio', { name: truckName, exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(atPath('/start'));
}

/** medic-style sign-in all the way to the start screen. */
export async function signInToStart(page: Page, username: string, team: string, truck: string): Promise<void> {
  await signIn(page, username);
  await chooseTeam(page, team);
  await chooseTruck(page, truck);
}

/** Start → Logout → Yes, back at the login screen. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog).toContainText(messages.logoutConfirm);
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(atPath('/'));
}

/**
 * Waits until what the crew app holds in memory has reached the device's storage, judged the way a medic
 * would see it: a second tab opened at `/start` lands where the first one is (`expectedPath`). Storage
 * writes are asynchronous (encrypted in production builds), so a test that reloads right after a step
 * waits for them first. The probe tab leaves the page under test and its pending writes alone.
 */
export async function waitUntilStored(page: Page, expectedPath: string): Promise<void> {
  await expect(async () => {
    const probe = await page.context().newPage();
    try {
      await probe.goto('/start');
      await expect(probe).toHaveURL(atPath(expectedPath), { timeout: 2_000 });
    } finally {
      await probe.close();
    }
  }).toPass({ timeout: 15_000 });
}

/** Turns a switch on or off the way a finger does: a tap on its (visual) track. */
export async function setSwitch(page: Page, name: string, on: boolean): Promise<void> {
  const control = page.getByRole('switch', { name });
  if ((await control.isChecked()) !== on) await control.click({ force: true });
  await expect(control).toBeChecked({ checked: on });
}

/** Opens and closes the Message Center on Start, so the unread count starts from 0. */
export async function readMessageCenter(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Message Center/ }).click();
  const center = page.getByRole('dialog', { name: 'Message Center' });
  await expect(center).toBeVisible();
  await center.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Message Center', exact: true })).toBeVisible();
}
