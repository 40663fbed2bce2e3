/**
 * What the browser benchmarks share: the built crew app (built when missing, under the lock the browser
 * tests hold, since they share the build output), Debian's Chromium as the e2e tests launch it, and the
 * steps from the login screen to an open case, driven by role and accessible name as a medic would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';
import { REPO_ROOT } from './server';

/** How long one UI step may take before the bench gives up (a 4× throttled CPU is slow, not stuck). */
export const STEP_TIMEOUT_MS = 30_000;

/** The phone the e2e tests use (their `phone` project). */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'en-US',
  timezoneId: 'UTC',
} as const;

/** Builds the apps (`npm run build`) when the crew app's build output is missing. */
export function ensureAppsBuilt(): void {
  if (existsSync(path.join(REPO_ROOT, 'apps/crew/dist/index.html'))) return;
  console.info('bench: apps/crew/dist is missing; building the apps (under /tmp/e2e.lock) …');
  execFileSync('flock', ['/tmp/e2e.lock', 'npm', 'run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** login → team → truck → START CASE → Stroke: the case screen with the Stroke sections shown. */
export async function openStrokeCase(page: Page, username = 'medic1'): Promise<void> {
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto('/');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(`demo-${username}`); // the seeded demo password
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('radio', { name: 'Riverside EMS', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Medic 1', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'START CASE' }).click();
  await page.getByRole('heading', { name: /^Case / }).waitFor();
  await page.getByRole('button', { name: /^Stroke Priority \d$/ }).click();
  await page.getByRole('region', { name: 'Deficits' }).waitFor();
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (value: number) => `${Math.round(value)} ms`;
