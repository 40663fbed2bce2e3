/** The hospital console in the browser: sign-in, and a signed-in ED page in a context of its own. */
import { expect, type Browser, type Page } from '@playwright/test';
import { demoPassword, hospitals, users } from './demo';

export async function signInToConsole(page: Page, username: string, password = demoPassword(username)): Promise<void> {
  await page.goto('/hospital/');
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** ed1 on Riverside Regional's board, its live connection up; close it with `page.context().close()`. */
export async function consolePage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await signInToConsole(page, users.ed1.username);
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText(/Live/);
  return page;
}

/** Opens the header's account menu (the signed-in user's name) and answers it, for Sign-in security and Sign out. */
export async function openAccountMenu(page: Page) {
  const banner = page.getByRole('banner');
  await banner.locator('.account-menu-button').click();
  return banner.locator('.account-menu-panel');
}

/** Plays a media element of the page muted (headless autoplay rules) and answers what it reports once it has data. */
export async function playMedia(page: Page, selector: string) {
  return page.locator(selector).evaluate(async (element: HTMLMediaElement) => {
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const check = () => {
        if (element.readyState >= 2 && element.currentTime > 0) resolve();
        else if (element.error) reject(new Error(`media error ${element.error.code}`));
        else if (Date.now() > deadline) reject(new Error(`readyState ${element.readyState}`));
        else setTimeout(check, 50);
      };
      check();
    });
    element.pause();
    return { readyState: element.readyState, duration: element.duration, currentTime: element.currentTime };
  });
}
