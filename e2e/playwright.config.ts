/**
 * Browser tests across the crew app, the hospital console and the real server. Build the apps first
 * (`npm run build`); this config builds nothing: it starts `apps/server` on a fresh, seeded DATA_DIR and
 * waits for /health. Artifacts (traces, failure screenshots, the screen gallery) go to e2e/.artifacts/.
 */
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_SCREEN } from './support/chromium';
import { REPO_ROOT, SERVER_COMMAND, freePortSync, freshDataDir, serverEnv } from './support/server';

// Chosen once in the main process (a free port, a fresh data directory); the workers inherit both through
// the environment, so they all talk to the one server. E2E_PORT pins the port when wanted.
process.env.E2E_PORT ??= String(freePortSync());
process.env.E2E_DATA_DIR ??= freshDataDir('e2e');
const port = Number(process.env.E2E_PORT);
const isCI = Boolean(process.env.CI);

const phone = { ...devices['Desktop Chrome'], ...PHONE_SCREEN };

export default defineConfig({
  testDir: './tests',
  outputDir: './.artifacts/test-results',
  fullyParallel: false,
  forbidOnly: isCI,
  // None, in CI too: a retry hides a race, and a race a test hits is one a crew or a nurse may hit.
  retries: 0,
  workers: 2,
  reporter: 'list',
  // A hang detector, not a speed check. The same commit's browser suite took 8 min on one 2-core machine of
  // CI's kind and 25 min on another; there a dispatch walk of 12–19 s here passed 60 s with every step still
  // passing. Tests that wait on the server's clocks (sweeps, re-alerts) set more.
  timeout: 90_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    // A failed test keeps its trace (actions with their call logs, console, network), without the screencast
    // or DOM snapshots: recording every page's frames for every test cost 30 % of the suite's CPU (phone
    // project: 902 → 628 s, 503 → 385 s wall), the snapshots taken at every action of every passing test
    // another ~10 %, and the failure screenshot shows the last frame anyway. `--trace on` brings them back.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    locale: 'en-US',
    timezoneId: 'UTC',
  },
  projects: [
    {
      name: 'phone',
      testIgnore: [/hospital\.spec\.ts/, /live-consult\.spec\.ts/],
      use: phone,
    },
    {
      // Three browsers sending fake camera video at once: run after the other phone tests, so a recorder's
      // timer in a test beside it is not starved (media-capture's 5 s video read 0:09 when they overlapped).
      name: 'phone-video-heavy',
      testMatch: /live-consult\.spec\.ts/,
      dependencies: ['phone'],
      use: phone,
    },
    {
      name: 'tablet',
      grep: /@tablet/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1024, height: 768 }, hasTouch: true },
    },
    {
      name: 'desktop',
      testMatch: /hospital\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  globalTeardown: './support/global-teardown.ts',
  webServer: {
    command: SERVER_COMMAND,
    cwd: REPO_ROOT,
    url: `http://127.0.0.1:${port}/health`,
    env: serverEnv(port, process.env.E2E_DATA_DIR),
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
