/**
 * The pre-notification a crew sends from Start (issue 16): complaint, three findings including the onset
 * time, age, gender and destination, driven as a medic's finger would — every step a tap on something
 * visible — while the page counts the taps (trusted pointer presses) and any scrolling (a scroll event on
 * the page or any element, which Playwright's own scroll-into-view would cause too). Used by the browser
 * test (fails above 8 taps or with any scroll) and by bench/field-speed.ts (the figures).
 */
import { expect, type Page } from '@playwright/test';
import { hospitals } from './demo';

export interface FieldFlow {
  name: string;
  complaint: string;
  /** The onset time tag's one-tap choice: the tag and the choice's label. */
  onset: { tag: string; choice: string; minutesAgo: number };
  /** Plain tags, by section. */
  tags: { section: string; name: string }[];
  age: number;
  gender: 'Male' | 'Female';
  hospital: string;
}

export const STROKE_FLOW: FieldFlow = {
  name: 'stroke',
  complaint: 'Stroke',
  onset: { tag: 'Last Known Well', choice: '−30 min', minutesAgo: 30 },
  tags: [
    { section: 'Stroke Scale', name: 'BE-FAST Positive' },
    { section: 'Stroke Scale', name: 'Cincinnati Positive' },
  ],
  age: 72,
  gender: 'Female',
  hospital: hospitals.riversideRegional,
};

export const STEMI_FLOW: FieldFlow = {
  name: 'STEMI',
  complaint: 'STEMI / Chest Pain',
  onset: { tag: '12-Lead Time', choice: 'Now', minutesAgo: 0 },
  tags: [
    { section: '12-Lead', name: 'STEMI on 12-lead' },
    { section: '12-Lead', name: '12-lead transmitted' },
  ],
  age: 58,
  gender: 'Male',
  hospital: hospitals.riversideRegional,
};

export interface FlowResult {
  taps: number;
  scrolls: number;
  /** Where each scroll happened (after which tap, on what). */
  scrolled: string[];
  /** START CASE tap → "Sent to {hospital}" on the case screen, scripted (a person is slower). */
  seconds: number;
  caseNumber: string;
  /** The onset time as the board shows it (hh:mm in the page's time zone, UTC in the tests). */
  onsetClock: string;
}

/** Installs the tap and scroll counters in every page of the context (call before the first navigation). */
export async function countTapsAndScrolls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counters = { taps: 0, scrolls: 0, scrolled: [] as string[] };
    (window as unknown as { __fieldFlow: typeof counters }).__fieldFlow = counters;
    // On the document, not the window: Playwright checks each press's target in a capture listener on the
    // window and stops a press that would land on something else (a banner that just moved in — in a full
    // run other tests' broadcasts and status changes arrive mid-flow), then presses again. Counted on the
    // window, that blocked press was a 9th tap no person made.
    document.addEventListener('pointerdown', (event) => event.isTrusted && (counters.taps += 1), true);
    window.addEventListener(
      'scroll',
      (event) => {
        counters.scrolls += 1;
        // What scrolled, after which tap: says which step of the flow needed it.
        const target = event.target instanceof Element ? event.target.className || event.target.tagName : 'page';
        counters.scrolled.push(`after tap ${counters.taps}: ${String(target)}`);
      },
      true,
    );
  });
}

interface Counters {
  taps: number;
  scrolls: number;
  scrolled: string[];
}

async function counters(page: Page): Promise<Counters> {
  return page.evaluate(() => {
    const c = (window as unknown as { __fieldFlow: Counters }).__fieldFlow;
    return { taps: c.taps, scrolls: c.scrolls, scrolled: [...c.scrolled] };
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const clock = (date: Date) =>
  `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;

/** From Start (signed in, truck chosen) to "Sent to …": the taps of `flow`, counted. */
export async function runFieldFlow(page: Page, flow: FieldFlow): Promise<FlowResult> {
  await expect(page.getByRole('button', { name: 'START CASE' })).toBeVisible();
  const before = await counters(page);
  const started = Date.now();
  await page.getByRole('button', { name: 'START CASE' }).click();
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(flow.complaint)} Priority \\d$`) }).click();

  const onsetAt = new Date(Date.now() - flow.onset.minutesAgo * 60_000);
  await page
    .getByRole('group', { name: `${flow.onset.tag} times` })
    .getByRole('button', { name: flow.onset.choice, exact: true })
    .click();
  const onsetTag = page.getByRole('button', { name: new RegExp(`^${escapeRegExp(flow.onset.tag)} \\d\\d:\\d\\d, `) });
  await expect(onsetTag).toHaveAttribute('aria-pressed', 'true');

  for (const tag of flow.tags) {
    const button = page.getByRole('region', { name: tag.section }).getByRole('button', { name: tag.name, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }

  const age = page.getByRole('group', { name: 'Age and gender' }).getByRole('textbox', { name: /^Age in / });
  await age.click();
  await page.keyboard.type(String(flow.age));
  const gender = page.getByRole('button', { name: flow.gender, exact: true });
  await gender.click();
  await expect(gender).toHaveAttribute('aria-pressed', 'true');
  await expect(age).toHaveValue(String(flow.age));

  const hospital = page
    .getByRole('group', { name: 'Destination hospital' })
    .getByRole('button', { name: new RegExp(`^${escapeRegExp(flow.hospital)}`) });
  await hospital.click();
  await expect(hospital).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('delivery-state')).toContainText(`Sent to ${flow.hospital}`, { timeout: 20_000 });
  const seconds = (Date.now() - started) / 1000;

  const after = await counters(page);
  const heading = page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ });
  const caseNumber = (await heading.innerText()).replace(/^Case /, '').trim();
  return {
    taps: after.taps - before.taps,
    scrolls: after.scrolls - before.scrolls,
    scrolled: after.scrolled.slice(before.scrolled.length),
    seconds,
    caseNumber,
    onsetClock: clock(onsetAt),
  };
}
