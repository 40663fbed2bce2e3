/**
 * Voice call: tap → CONNECTED (issue 12, "Figures"): target ≤ 1.0 s on loopback, ≤ 1.5 s when the crew
 * is behind a 150 ms RTT link.
 *
 * A crew (phone viewport) and an ED console (desktop) in Debian's Chromium with the fake microphone,
 * against the real server. The console answers the moment its ring shows (a MutationObserver clicks
 * Answer in the page), so the figure is the system's share: the crew's start request, the ring over
 * /realtime, the answer, the offer/answer/candidates through the server, ICE and DTLS. Times are taken
 * in the pages: the tap is the trusted click's `timeStamp`, CONNECTED is the mutation that shows the
 * mm:ss timer (`data-call-status`); ring shown is on the console's clock (same machine: Date.now()).
 *
 * - loopback: both browsers straight to the server; ICE host candidates (no STUN, no TURN);
 * - 150 ms RTT: the crew's every byte goes through a TCP proxy that holds each chunk 75 ms each way —
 *   its page, API calls and /realtime, and its media: relay-only ICE through Debian's coturn over TCP
 *   behind the same kind of proxy. The console (on the hospital LAN) reaches coturn directly (the bench
 *   rewrites the TURN address in the console's answer; the server hands out one address to both).
 *
 * Three runs of CALLS calls per link; each figure is the median of the runs' medians; server CPU per
 * call beside it.
 */
/// <reference lib="dom" />
import { createServer, Socket, type Server } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startCoturn } from '../e2e/support/coturn';
import { ensureAppsBuilt, PHONE, STEP_TIMEOUT_MS } from './lib/browser';
import { pad, verdict } from './lib/format';
import { freePort, startServer } from './lib/server';

export const LOOPBACK_TARGET_MS = 1_000;
export const RTT150_TARGET_MS = 1_500;
const CALLS = Number(process.env.BENCH_CALLS ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A TCP proxy that holds every chunk `oneWayMs` in each direction (order kept: one delay for all). */
async function startDelayProxy(target: number, oneWayMs: number): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    const forward = (to: Socket) => (chunk: Buffer) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, oneWayMs);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const end = () => setTimeout(() => (client.destroy(), upstream.destroy()), oneWayMs);
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    upstream.connect(target, '127.0.0.1');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no proxy port');
  return {
    port: address.port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

interface CallTimes {
  tap: number;
  ringShown: number;
  connected: number;
}

/** Crew page: the tap's time and CONNECTED's, on the wall clock (ms). */
function instrumentCrew(): void {
  const w = window as unknown as { __call: { tap: number | null; connected: number | null } };
  w.__call = { tap: null, connected: null };
  // No named inner functions here: tsx would wrap them in a helper the page does not have.
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element | null;
      if (target?.closest('[data-testid="call-button"]'))
        w.__call = { tap: performance.timeOrigin + event.timeStamp, connected: null };
    },
    true,
  );
  new MutationObserver(() => {
    if (
      w.__call.tap !== null &&
      w.__call.connected === null &&
      document.querySelector('[data-call-status="CONNECTED"]')
    )
      w.__call.connected = performance.timeOrigin + performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-call-status'] });
}

/** Console page: answers each ring as soon as it shows, noting when it showed. */
export function instrumentConsole(): void {
  const w = window as unknown as { __rings: number[] };
  w.__rings = [];
  const seen = new WeakSet<Element>();
  new MutationObserver(() => {
    const ring = document.querySelector('[data-testid="incoming-call"]');
    if (!ring || seen.has(ring)) return;
    seen.add(ring);
    w.__rings.push(performance.timeOrigin + performance.now());
    const answer = Array.from(ring.querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Answer');
    answer?.click();
  }).observe(document, { subtree: true, childList: true });
}

export async function openCrewCase(page: Page): Promise<void> {
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto('/');
  await page.getByLabel('Username or email').fill('medic1');
  await page.getByLabel('Password', { exact: true }).fill('demo-medic1');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('radio', { name: 'Riverside EMS', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Medic 1', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'START CASE' }).click();
  await page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ }).waitFor();
  const choices = page.getByRole('group', { name: 'Destination hospital' });
  await choices.getByRole('button', { name: /^Riverside Regional Medical Center/ }).click();
}

export async function openConsole(page: Page): Promise<void> {
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto('/hospital/');
  await page.getByLabel('Username or e-mail').fill('ed1');
  await page.getByLabel('Password', { exact: true }).fill('demo-ed1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('connection').filter({ hasText: /Live/ }).waitFor();
}

async function oneCall(crew: Page, nurse: Page): Promise<CallTimes> {
  const ringsBefore = await nurse.evaluate(() => (window as unknown as { __rings: number[] }).__rings.length);
  await crew.getByRole('button', { name: 'Call the emergency department' }).click();
  await crew.locator('[data-call-status="CONNECTED"]').waitFor();
  const call = await crew.evaluate(() => (window as unknown as { __call: { tap: number; connected: number } }).__call);
  const rings = await nurse.evaluate(() => (window as unknown as { __rings: number[] }).__rings);
  // Hang up and let both screens close before the next call.
  await crew.getByRole('button', { name: 'Hang up' }).click();
  await crew.locator('.call-screen').waitFor({ state: 'detached' });
  await nurse.locator('.active-call').waitFor({ state: 'detached' });
  return { tap: call.tap, connected: call.connected, ringShown: rings[ringsBefore] ?? Number.NaN };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

interface LinkFigures {
  connectMs: number;
  ringMs: number;
  runs: number[];
  serverCpuMsPerCall: number;
}

async function measure(browser: Browser, link: 'loopback' | 'rtt150'): Promise<LinkFigures> {
  const port = await freePort();
  const turn = link === 'rtt150' ? await startCoturn() : null;
  const turnProxy = turn ? await startDelayProxy(turn.port, 75) : null;
  const crewProxy = link === 'rtt150' ? await startDelayProxy(port, 75) : null;
  const env: Record<string, string> = { ICE_SERVERS: '[]', LOG_LEVEL: 'warn' };
  if (turn && turnProxy && crewProxy) {
    Object.assign(env, {
      TURN_URLS: `turn:127.0.0.1:${turnProxy.port}?transport=tcp`,
      TURN_SECRET: turn.secret,
      ICE_TRANSPORT_POLICY: 'relay',
      REALTIME_ALLOWED_ORIGINS: `http://127.0.0.1:${crewProxy.port}`,
    });
  }
  const server = await startServer(port, env);
  const runMedians: number[] = [];
  const ringMedians: number[] = [];
  let cpuMs = 0;
  let calls = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const crewContext = await browser.newContext({
        ...PHONE,
        baseURL: crewProxy ? `http://127.0.0.1:${crewProxy.port}` : server.url,
        serviceWorkers: 'block',
      });
      const consoleContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
      const crew = await crewContext.newPage();
      const nurse = await consoleContext.newPage();
      await crew.addInitScript(instrumentCrew);
      await nurse.addInitScript(instrumentConsole);
      if (turn && turnProxy) {
        // The ED is on the hospital LAN: its TURN leg goes straight to coturn.
        await nurse.route('**/v4/calls/*/answer', async (route) => {
          const response = await route.fetch();
          const body = (await response.text()).replaceAll(`:${turnProxy.port}?`, `:${turn.port}?`);
          await route.fulfill({ response, body });
        });
      }
      await openConsole(nurse);
      await openCrewCase(crew);
      const connects: number[] = [];
      const ringsShown: number[] = [];
      const cpuBefore = server.cpuSeconds();
      for (let i = 0; i < CALLS; i++) {
        const t = await oneCall(crew, nurse);
        connects.push(t.connected - t.tap);
        ringsShown.push(t.ringShown - t.tap);
      }
      cpuMs += (server.cpuSeconds() - cpuBefore) * 1000;
      calls += CALLS;
      runMedians.push(median(connects));
      ringMedians.push(median(ringsShown));
      await crewContext.close();
      await consoleContext.close();
    }
  } finally {
    await server.stop();
    crewProxy?.close();
    turnProxy?.close();
    await turn?.stop();
  }
  return {
    connectMs: median(runMedians),
    ringMs: median(ringMedians),
    runs: runMedians,
    serverCpuMsPerCall: cpuMs / calls,
  };
}

export async function runCallConnect(): Promise<{ loopback: LinkFigures; rtt150: LinkFigures }> {
  ensureAppsBuilt();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const loopback = await measure(browser, 'loopback');
    const rtt150 = await measure(browser, 'rtt150');
    return { loopback, rtt150 };
  } finally {
    await browser.close();
  }
}

function print(name: string, f: LinkFigures, target: number) {
  const runs = f.runs.map((r) => `${Math.round(r)}`).join(' / ');
  console.info(
    `${pad(name, 34)} tap → CONNECTED ${Math.round(f.connectMs)} ms (runs ${runs}) — target ≤ ${target} ms (${verdict(f.connectMs <= target)}); ` +
      `tap → ring shown ${Math.round(f.ringMs)} ms; server CPU ${f.serverCpuMsPerCall.toFixed(1)} ms per call`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.info(`== Voice call: tap → CONNECTED (${RUNS} runs × ${CALLS} calls, median of run medians)`);
  const { loopback, rtt150 } = await runCallConnect();
  print('loopback', loopback, LOOPBACK_TARGET_MS);
  print('crew behind 150 ms RTT (TURN/TCP)', rtt150, RTT150_TARGET_MS);
}
