import { expect, test } from '@playwright/test';
import { messages, serverMessages } from '@inbound/contract';
import { lowContrastTexts } from '../support/contrast';
import { atPath, loginForm } from '../support/crew';
import { users } from '../support/demo';

test.describe('login', () => {
  test('asks for the username and the password, and clears each message on typing', async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.submit.click();
    await expect(page.getByText(messages.fillUsername, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(atPath('/'));

    await form.username.fill(users.medic1.username);
    await expect(page.getByText(messages.fillUsername, { exact: true })).toBeHidden();
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeVisible();
    await form.password.fill('x');
    await expect(page.getByText(messages.fillPassword, { exact: true })).toBeHidden();
  });

  test("shows the server's message for a wrong password", async ({ page }) => {
    await page.goto('/');
    const form = loginForm(page);
    await form.username.fill(users.medic1.username);
    await form.password.fill('not-the-password');
    await form.submit.click();
    await expect(page.getByRole('alert')).toHaveText(serverMessages.invalidCredentials);
    await expect(page).toHaveURL(atPath('/'));
    await expect(form.submit).toBeEnabled();
  });

  test('does not show the Feedback link on /', async ({ page }) => {
    await page.goto('/');
    await expect(loginForm(page).submit).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Feedback' }).or(page.getByRole('button', { name: 'Feedback' })),
    ).toHaveCount(0);
  });

  // Issue 16, item 8: the name and tagline stay on the dark band at every size (a fixed 260 px band left
  // them white on near-white on tall tablets), and they are there before the scripts run (the shell).
  for (const [width, height] of [
    [600, 960],
    [768, 1024],
    [800, 1280],
  ] as const) {
    test(`the name and tagline read on the dark band at ${width}×${height}, with and without the app`, async ({
      browser,
      baseURL,
    }) => {
      for (const javaScriptEnabled of [false, true]) {
        const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled, baseURL });
        const page = await context.newPage();
        await page.goto('/');
        if (javaScriptEnabled) await expect(loginForm(page).submit).toBeVisible();
        const brand = page.locator('.login__brand');
        await expect(brand.getByRole('heading', { level: 1, name: 'Inbound' })).toBeVisible();
        await expect(brand.getByText(messages.tagline, { exact: true })).toBeVisible();
        // The band is the brand's own solid background (a gradient would not be judged by the check below),
        // and the name and tagline lie inside it.
        expect(await brand.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(11, 37, 69)');
        const band = (await brand.boundingBox())!;
        for (const text of [brand.getByRole('heading', { level: 1 }), brand.getByText(messages.tagline)]) {
          const box = (await text.boundingBox())!;
          expect(box.y).toBeGreaterThanOrEqual(band.y);
          expect(box.y + box.height).toBeLessThanOrEqual(band.y + band.height);
        }
        expect(await lowContrastTexts(page, brand, { minimum: 7 }), `${width}×${height}`).toEqual([]);
        await context.close();
      }
    });
  }
});
