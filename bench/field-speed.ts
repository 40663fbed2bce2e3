/**
 * Field speed (issue 16, "Figures"): the stroke and the STEMI pre-notification from Start — complaint,
 * three findings with the onset time, age, gender, destination — on a phone (390×844), a 7" tablet
 * upright (600×960) and a tablet on its side (960×600): taps, scrolls and the scripted seconds from the
 * START CASE tap to "Sent to …" on the case screen. Targets: ≤ 8 taps, no scrolling, ≤ 10 s for a person
 * (a script taps far faster than a gloved hand; its seconds are the app's share of the time).
 * The flow is the browser test's own (e2e/support/fieldFlow.ts).
 *
 *   npx tsx bench/field-speed.ts
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { STEMI_FLOW, STROKE_FLOW, countTapsAndScrolls, runFieldFlow, type FieldFlow } from '../e2e/support/fieldFlow';
import { ensureAppsBuilt, launchChromium, STEP_TIMEOUT_MS } from './lib/browser';
import { pad, padStart, verdict } from './lib/format';
import { freePort, startServer } from './lib/server';

const VIEWPORTS = [
  { name: 'phone 390×844', viewport: { width: 390, height: 844 }, isMobile: true },
  { name: 'tablet 600×960', viewport: { width: 600, height: 960 }, isMobile: true },
  { name: 'tablet 960×600', viewport: { width: 960, height: 600 }, isMobile: false },
];
export const MAX_TAPS = 8;

export interface FieldSpeedFigure {
  flow: string;
  viewport: string;
  taps: number;
  scrolls: number;
  seconds: number;
}

export async function runFieldSpeed(): Promise<{ figures: FieldSpeedFigure[]; loadAverage: number }> {
  ensureAppsBuilt();
  const loadAverage = loadavg()[0] ?? 0;
  const server = await startServer(await freePort());
  const browser = await launchChromium();
  const figures: FieldSpeedFigure[] = [];
  try {
    for (const flow of [STROKE_FLOW, STEMI_FLOW] satisfies FieldFlow[]) {
      for (const { name, viewport, isMobile } of VIEWPORTS) {
        const context = await browser.newContext({
          baseURL: server.url,
          viewport,
          isMobile,
          hasTouch: true,
          locale: 'en-US',
          timezoneId: 'UTC',
          permissions: ['geolocation'],
          geolocation: { latitude: 42.36, longitude: -71.06 },
        });
        const page = await context.newPage();
        page.setDefaultTimeout(STEP_TIMEOUT_MS);
        await countTapsAndScrolls(page);
        await page.goto('/');
        await page.getByLabel('Username or email').fill('medic1');
        await page.getByLabel('Password', { exact: true }).fill('demo-medic1');
        await page.getByRole('button', { name: 'Login' }).click();
        await page.getByRole('radio', { name: 'Riverside EMS', exact: true }).check();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('radio', { name: 'Medic 1', exact: true }).check();
        await page.getByRole('button', { name: 'Next' }).click();
        const result = await runFieldFlow(page, flow);
        figures.push({
          flow: flow.name,
          viewport: name,
          taps: result.taps,
          scrolls: result.scrolls,
          seconds: result.seconds,
        });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return { figures, loadAverage };
}

export function printFieldSpeed({ figures, loadAverage }: { figures: FieldSpeedFigure[]; loadAverage: number }) {
  console.info(`\nField speed: pre-notification from Start (scripted taps) — load average ${loadAverage.toFixed(2)}`);
  console.info(
    `  ${pad('flow', 7)} ${pad('viewport', 16)} ${padStart('taps', 5)} ${padStart('scrolls', 8)} ${padStart('seconds', 8)}`,
  );
  for (const f of figures) {
    console.info(
      `  ${pad(f.flow, 7)} ${pad(f.viewport, 16)} ${padStart(String(f.taps), 5)} ${padStart(String(f.scrolls), 8)} ${padStart(
        f.seconds.toFixed(1),
        8,
      )}   ${verdict(f.taps <= MAX_TAPS && f.scrolls === 0)} (≤ ${MAX_TAPS} taps, no scrolling)`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printFieldSpeed(await runFieldSpeed());
}
