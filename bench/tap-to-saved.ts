/**
 * Tap → change saved in the outbox and shown, under 4× CPU throttling (target p95 ≤ 100 ms).
 *
 * A signed-in crew on a Stroke case (phone viewport, Chromium, the real server on loopback) makes ~50
 * taps: tags on and off, a swap within a group, gender set, changed and cleared, the age saved from its
 * dialog. Each tap is timed in the page, on the page's own clock (`performance.now()`), so neither
 * Playwright's round trips nor its polling are in the figures:
 *
 * - the tap: the `timeStamp` of the trusted `click` event (when the browser received the input, so the
 *   time the event waits for a busy main thread is counted);
 * - saved: the `complete` event of the IndexedDB transaction that added the tap's entry to the outbox's
 *   `pending` store (`IDBObjectStore.prototype.add` is wrapped to listen on it). The outbox writes with
 *   `durability: 'strict'`, so `complete` means flushed to disk. A swap queues two entries; the last counts;
 * - shown: a MutationObserver sees the tapped control show the new state (`aria-pressed`, the age text);
 *   the frame that paints it is taken as the first task after the next `requestAnimationFrame`.
 *
 * Node only waits (polling every 50 ms) until a tap's three times are recorded, then reads them.
 */
/// <reference lib="dom" />
import { pathToFileURL } from 'node:url';
import type { ElementHandle, Page } from '@playwright/test';
import {
  distribution,
  ensureAppsBuilt,
  launchChromium,
  ms,
  openStrokeCase,
  PHONE,
  STEP_TIMEOUT_MS,
  type Distribution,
} from './lib/browser';
import { pad, padStart, verdict } from './lib/format';
import { freePort, startServer } from './lib/server';

export const TAP_P95_TARGET_MS = 100;
const TAPS = Number(process.env.BENCH_TAPS ?? 50);
const CPU_THROTTLING = Number(process.env.BENCH_CPU_THROTTLING ?? 4);
/** Between taps: a medic taps every second or two, and the outbox sends each change in between. */
const PAUSE_MS = 400;

export interface TapFigures {
  taps: number;
  cpuThrottling: number;
  saved: Distribution;
  /** Saved, for the taps that queue one change (all but the swaps). */
  savedSingle: Distribution;
  /** The last entry's IndexedDB transaction alone: `add()` called → `complete`. */
  transaction: Distribution;
  domUpdated: Distribution;
  shown: Distribution;
}

interface TapTimes {
  click: number;
  added: number;
  saved: number;
  domUpdated: number;
  painted: number;
}

/** What the page records; installed before the app's scripts run. */
interface TapProbe {
  /** When the outbox handed an entry to IndexedDB (`add()` called: after the body was sealed). */
  adds: number[];
  saved: number[];
  clicks: number[];
  current: { savedFrom: number; clicksFrom: number; domUpdated: number | null; painted: number | null } | null;
}

function instrument(): void {
  const probe: TapProbe = { adds: [], saved: [], clicks: [], current: null };
  (window as unknown as { __tapProbe: TapProbe }).__tapProbe = probe;
  const add = IDBObjectStore.prototype.add;
  IDBObjectStore.prototype.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
    const request = add.apply(this, args);
    if (this.name === 'pending' && this.transaction.db.name === 'inbound-outbox') {
      probe.adds.push(performance.now());
      this.transaction.addEventListener('complete', () => probe.saved.push(performance.now()));
    }
    return request;
  };
  window.addEventListener(
    'click',
    (event) => {
      if (event.isTrusted) probe.clicks.push(event.timeStamp);
    },
    true,
  );
}

type Expectation = { pressed: boolean } | { text: string };

/** Starts watching `target` for the state a tap must show. */
async function arm(page: Page, target: ElementHandle, expectation: Expectation): Promise<void> {
  await target.evaluate((element, expected) => {
    const probe = (window as unknown as { __tapProbe: TapProbe }).__tapProbe;
    const current = { savedFrom: probe.saved.length, clicksFrom: probe.clicks.length, domUpdated: null, painted: null };
    probe.current = current as TapProbe['current'];
    // No local function declarations in page code: tsx's name-keeping helper does not exist in the page.
    const observer = new MutationObserver(() => {
      const shows =
        'pressed' in expected
          ? (element as Element).getAttribute('aria-pressed') === String(expected.pressed)
          : element.textContent?.trim() === expected.text;
      if (!shows) return;
      observer.disconnect();
      const entry = probe.current!;
      entry.domUpdated = performance.now();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (entry.painted = performance.now());
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  }, expectation);
}

/** Waits until the armed tap has its `entries` outbox writes and its painted frame, and returns the times. */
async function collect(page: Page, entries: number): Promise<TapTimes> {
  const handle = await page.waitForFunction(
    (count) => {
      const probe = (window as unknown as { __tapProbe: TapProbe }).__tapProbe;
      const current = probe.current!;
      if (current.painted === null || probe.saved.length < current.savedFrom + count) return null;
      return {
        click: probe.clicks[current.clicksFrom] ?? Number.NaN,
        added: probe.adds[current.savedFrom + count - 1]!,
        saved: probe.saved[current.savedFrom + count - 1]!,
        domUpdated: current.domUpdated!,
        painted: current.painted,
      };
    },
    entries,
    { polling: 50, timeout: STEP_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as TapTimes;
}

interface Tap {
  name: string;
  /** Outbox entries the tap queues (a swap in a group: remove + add). */
  entries: number;
  run: (page: Page) => Promise<TapTimes>;
}

function tagTap(section: string, tag: string, pressed: boolean, entries = 1): Tap {
  return {
    name: `${tag} ${pressed ? 'on' : 'off'}`,
    entries,
    run: async (page) => {
      const button = page.getByRole('region', { name: section }).getByRole('button', { name: tag, exact: true });
      await arm(page, await button.elementHandle(), { pressed });
      await button.click();
      return collect(page, entries);
    },
  };
}

function genderTap(gender: 'Male' | 'Female', pressed: boolean): Tap {
  return {
    name: `${gender} ${pressed ? 'on' : 'off'}`,
    entries: 1,
    run: async (page) => {
      const button = page.getByRole('button', { name: gender, exact: true });
      await arm(page, await button.elementHandle(), { pressed });
      await button.click();
      return collect(page, 1);
    },
  };
}

/** The age dialog (from the unit button) is opened and filled first; the tap timed is Save, seen on the unit. */
function ageTap(age: number, unit: 'Years' | 'Months'): Tap {
  return {
    name: `age ${age} ${unit}`,
    entries: 1,
    run: async (page) => {
      const chip = page.getByRole('group', { name: 'Age and gender' }).getByRole('button', { name: /^Age unit/ });
      const chipHandle = await chip.elementHandle();
      await chip.click();
      const dialog = page.getByRole('dialog', { name: 'Age' });
      await dialog.getByRole('button', { name: unit, exact: true }).click();
      await dialog.getByLabel(`Age in ${unit.toLowerCase()}`).fill(String(age));
      // Rounds alternate Years and Months, so the unit button's text changes with every saved age.
      await arm(page, chipHandle, { text: unit });
      await dialog.getByRole('button', { name: 'Save' }).click();
      return collect(page, 1);
    },
  };
}

/** One round: every kind of tap, leaving the case as it found it except the age (which alternates). */
function round(index: number): Tap[] {
  return [
    tagTap('Deficits', 'Left', true),
    tagTap('Deficits', 'Right', true, 2),
    tagTap('Deficits', 'Facial Droop', true),
    tagTap('Deficits', 'Arm Drift', true),
    tagTap('Onset', 'Wake-up Stroke', true),
    tagTap('Vitals & Labs', 'On Anticoagulants', true),
    genderTap('Male', true),
    genderTap('Female', true),
    genderTap('Female', false),
    tagTap('Deficits', 'Facial Droop', false),
    tagTap('Deficits', 'Arm Drift', false),
    tagTap('Onset', 'Wake-up Stroke', false),
    tagTap('Vitals & Labs', 'On Anticoagulants', false),
    tagTap('Deficits', 'Right', false),
    index % 2 === 0 ? ageTap(67, 'Years') : ageTap(5, 'Months'),
  ];
}

export async function runTapToSaved(): Promise<TapFigures> {
  ensureAppsBuilt();
  const server = await startServer(await freePort());
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ ...PHONE, baseURL: server.url });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    await openStrokeCase(page);

    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLING });
    const times: (TapTimes & { entries: number })[] = [];
    for (let index = 0; times.length < TAPS; index += 1) {
      for (const tap of round(index).slice(0, TAPS - times.length)) {
        const measured = await tap.run(page);
        if (!Number.isFinite(measured.click)) throw new Error(`${tap.name}: no click event was seen`);
        times.push({ ...measured, entries: tap.entries });
        await page.waitForTimeout(PAUSE_MS);
      }
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await context.close();
    return {
      taps: times.length,
      cpuThrottling: CPU_THROTTLING,
      saved: distribution(times.map((t) => t.saved - t.click)),
      savedSingle: distribution(times.filter((t) => t.entries === 1).map((t) => t.saved - t.click)),
      transaction: distribution(times.map((t) => t.saved - t.added)),
      domUpdated: distribution(times.map((t) => t.domUpdated - t.click)),
      shown: distribution(times.map((t) => t.painted - t.click)),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function printTapToSaved(figures: TapFigures): void {
  console.info(
    `\n== Tap → change saved and shown (${figures.taps} taps on a Stroke case, phone, ` +
      `${figures.cpuThrottling}× CPU throttling, Chromium, server on loopback)`,
  );
  console.info(
    `  ${pad('from the tap to', 34)} ${padStart('p50', 7)} ${padStart('p95', 7)} ${padStart('max', 7)}  target`,
  );
  const row = (name: string, d: Distribution, target: string) =>
    console.info(
      `  ${pad(name, 34)} ${padStart(ms(d.p50), 7)} ${padStart(ms(d.p95), 7)} ${padStart(ms(d.max), 7)}  ${target}`,
    );
  const target = (d: Distribution) => `p95 ≤ ${TAP_P95_TARGET_MS} ms: ${verdict(d.p95 <= TAP_P95_TARGET_MS)}`;
  row('saved in the outbox (IndexedDB)', figures.saved, target(figures.saved));
  row('shown (frame after the DOM change)', figures.shown, target(figures.shown));
  row('DOM updated', figures.domUpdated, 'for reference');
  row(`saved, one-change taps (${figures.savedSingle.count})`, figures.savedSingle, 'for reference');
  row('IndexedDB transaction alone', figures.transaction, 'for reference (add() → complete)');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTapToSaved(await runTapToSaved());
}
