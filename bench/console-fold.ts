/**
 * The console's first screen at 1280×800 (issue 16, item 9): with three priority-1 cases on the alert
 * banner, how many case cards show their priority, ETA and complaint above the fold, and how many fit
 * whole. Eight cases sent through the API as crews send them (bench/console-board-render.ts's seeding),
 * ed1's board in Chromium. Target: at least 4 cards readable above the fold (2 before issue 16).
 * Writes a screenshot to bench/.artifacts/console-fold-1280x800.png.
 *
 *   npx tsx bench/console-fold.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { crewApi, seedCases, signIn } from './console-board-render';
import { ensureAppsBuilt, launchChromium, STEP_TIMEOUT_MS } from './lib/browser';
import { verdict } from './lib/format';
import { freePort, REPO_ROOT, startServer } from './lib/server';

export const READABLE_TARGET = 4;
const CASES = 8;

export interface ConsoleFoldFigures {
  bannerLines: number;
  readable: number;
  whole: number;
}

export async function runConsoleFold(): Promise<ConsoleFoldFigures> {
  ensureAppsBuilt();
  const server = await startServer(await freePort());
  const browser = await launchChromium();
  try {
    await seedCases(crewApi(server.url, await signIn(server.url, 'medic1')), CASES);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'UTC',
      baseURL: server.url,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await page.goto('/hospital/');
    await page.getByLabel('Username or e-mail').fill('ed1');
    await page.getByLabel('Password', { exact: true }).fill('demo-ed1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="case-card"]').length >= n, CASES);
    await page.getByRole('alert').filter({ hasText: 'Priority 1 inbound' }).waitFor();
    // A string, not a function: tsx's name-keeping helper does not exist in the page.
    const figures = (await page.evaluate(`(() => {
      const above = (element) => element.getBoundingClientRect().bottom <= window.innerHeight;
      const cards = [...document.querySelectorAll('[data-testid="case-card"]')];
      return {
        bannerLines: document.querySelectorAll('.p1-alert-case').length,
        readable: cards.filter((card) => [...card.querySelectorAll('.case-complaint')].every(above)).length,
        whole: cards.filter(above).length,
      };
    })()`)) as ConsoleFoldFigures;
    const dir = path.join(REPO_ROOT, 'bench/.artifacts');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, 'console-fold-1280x800.png') });
    return figures;
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function printConsoleFold(f: ConsoleFoldFigures): void {
  console.info(`\nConsole board at 1280×800, ${CASES} cases, ${f.bannerLines} lines on the priority-1 banner`);
  console.info(
    `  cards with priority, ETA and complaint above the fold: ${f.readable} (target ≥ ${READABLE_TARGET})   ${verdict(
      f.readable >= READABLE_TARGET,
    )}`,
  );
  console.info(`  cards whole above the fold: ${f.whole}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printConsoleFold(await runConsoleFold());
}
