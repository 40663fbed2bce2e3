/**
 * Issue 14: the desktop host on a laptop with a display (xvfb-run) and Debian's Chromium. The host opens
 * the crew app's window; a TAIP report from the "modem" shows as the case's current position and goes
 * to the server with the next location update; closing the window opens it again.
 */
import { expect, test } from '@playwright/test';
import { messages } from '@inbound/contract';
import { attachToWindow, sendDatagram, startDesktopHost, taipReport, type DesktopHost } from '../support/desktop';
import { teams, trucks } from '../support/demo';
import { loginForm, SCREENS_DIR } from '../support/crew';
import path from 'node:path';

let host: DesktopHost;

test.beforeAll(async ({ baseURL }) => {
  host = await startDesktopHost(baseURL!);
});

test.afterAll(async () => {
  if (test.info().status !== test.info().expectedStatus) console.info(host?.output());
  await host?.stop();
});

test('the host opens the app window, a TAIP datagram positions the case and its location update, a closed window comes back', async ({
  baseURL: _baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const { browser, page, port } = await attachToWindow(host);
  const form = loginForm(page);
  await form.username.fill('medic1');
  await form.password.fill('demo-medic1');
  await form.submit.click();
  await expect(page.getByRole('heading', { name: messages.chooseTeam })).toBeVisible();
  // The desktop build: hash routing on the host's own origin.
  await expect(page).toHaveURL(`${host.url}#/team-selection`);
  await page.getByRole('radio', { name: teams.riverside, exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: trucks.riverside[0], exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${host.url}#/start`);

  // The modem reports once a second, as AirLink modems do, at a place the test chose.
  const [lat, lon] = [42.3601, -71.0589];
  const modem = setInterval(() => void sendDatagram(host.gpsPort, taipReport(lat, lon)), 1_000);
  try {
    const locationUpdate = page.waitForRequest(
      (request) =>
        request.url().endsWith('/locationUpdates') &&
        request.method() === 'POST' &&
        (JSON.parse(request.postData() ?? '{}') as { latitude?: number }).latitude === lat,
      { timeout: 40_000 },
    );
    // The installer's view: Settings → GPS Data Source shows the modem's reports as they come.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'GPS Data Source' }).click();
    await expect(page).toHaveURL(`${host.url}#/gpsSource`);
    await expect(page.getByLabel('Port type')).toHaveValue('udp4');
    await expect(page.getByTestId('gps-last-fix')).toContainText('42.36010° N, 71.05890° W');
    await expect(page.getByTestId('gps-counter-used')).not.toHaveText('0');
    await page.screenshot({
      path: path.join(SCREENS_DIR, `${testInfo.project.name}-desktop-gps-source.png`),
      fullPage: true,
    });
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('link', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'START CASE' }).click();
    await expect(page.getByTestId('current-position')).toContainText('Vehicle GPS (TAIP) 42.36010° N, 71.05890° W');
    const request = await locationUpdate;
    expect(JSON.parse(request.postData()!)).toMatchObject({ latitude: lat, longitude: lon });
    expect((await request.response())?.status()).toBeLessThan(300);
    await page.screenshot({ path: path.join(SCREENS_DIR, `${testInfo.project.name}-desktop-case-position.png`) });
  } finally {
    clearInterval(modem);
  }

  // Closed by accident: the host opens it again, on the case the crew was working.
  await page.close();
  await browser.close().catch(() => undefined);
  const reopened = await attachToWindow(host, port);
  await expect(reopened.page.getByRole('heading', { name: /^Case / })).toBeVisible({ timeout: 20_000 });
  expect(host.output()).toContain('reopening');
  await reopened.browser.close();
});
