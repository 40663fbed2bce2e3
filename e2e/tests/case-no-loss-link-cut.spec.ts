import { expect, test as base, type Page, type Request } from '@playwright/test';
import {
  apiToken,
  caseEvents,
  caseIdByNumber,
  caseNumberFromHeading,
  chooseComplaint,
  expectNothingWaiting,
  expectScriptShown,
  expectWaiting,
  getCase,
  RIVERSIDE_REGIONAL_ID,
  startCase,
  STROKE_TAG,
  strokeScript,
  tapGender,
  tapTag,
  waitForEvents,
} from '../support/cases';
import { serviceWorkerInControl, signInToStart } from '../support/crew';
import { teams, users } from '../support/demo';
import { startLinkProxy, type LinkProxy } from '../support/proxy';

// Issue 3, No loss, with the link cut for real: the crew app is loaded through a TCP proxy (page, API
// calls and the service worker's requests all go through it) that is then blackholed. The browser still
// believes it is online — no `setOffline` — so every request is sent and hangs, as in a tunnel with no
// coverage. A case is started and changed 23 times, the page is reloaded (the service worker serves the
// app shell), then the link comes back: the server holds exactly those changes, in order, each once.
const test = base.extend<{ link: LinkProxy }>({
  link: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured
    async ({}, use) => {
      const link = await startLinkProxy({ host: '127.0.0.1', port: Number(process.env.E2E_PORT) });
      await use(link);
      await link.close();
    },
    { timeout: 10_000 },
  ],
});
// The proxy's own origin: its service worker, IndexedDB and caches are this test's alone.
test.use({ baseURL: async ({ link }, use) => use(link.url) });

/**
 * Opens the app through the proxy, lets the service worker install (it claims the page on first install,
 * with the app shell precached) and signs medic1 in, until the team and complaint set are in its runtime
 * caches: what a crew has before driving into a tunnel.
 */
async function signInWithWarmServiceWorker(page: Page): Promise<void> {
  await page.goto('/');
  await serviceWorkerInControl(page);
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await expect
    .poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('inbound-runtime-'))))
    .toEqual(expect.arrayContaining(['inbound-runtime-teams', 'inbound-runtime-complaint-sets']));
}

const isCaseWrite = (request: Request) =>
  new URL(request.url()).pathname.startsWith('/v4/twiageCases') && request.method() !== 'GET';

/**
 * Counts the case writes the app has seen answered, each once by its Idempotency-Key (a write sent
 * again after a reset and answered again is still one write, one event).
 */
function answeredWrites(page: Page): { count: () => number; reached: (count: number) => Promise<void> } {
  const keys = new Set<string>();
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  page.on('response', async (response) => {
    if (!isCaseWrite(response.request())) return;
    keys.add((await response.request().headerValue('Idempotency-Key')) ?? response.url());
    for (const waiter of waiting.filter((entry) => keys.size >= entry.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    count: () => keys.size,
    reached: (count) => new Promise((resolve) => waiting.push({ count, resolve })),
  };
}

test('link blackholed: a case and 23 changes survive a reload and reach the server once each, in order', async ({
  page,
  link,
}) => {
  test.slow(); // 23 taps, a reload and a flush after hanging requests: about 30 s on 2 cores
  const serverURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const dataDir = process.env.E2E_DATA_DIR!;

  await signInWithWarmServiceWorker(page);

  link.blackhole();
  expect(await page.evaluate(() => navigator.onLine), 'the browser is not told about the cut').toBe(true);
  await startCase(page);
  await expect(page.getByRole('heading', { name: 'Case ...' }), 'the placeholder case').toBeVisible();

  const script = strokeScript();
  const expected = ['caseStarted', ...script.flatMap((change) => change.events)];
  expect(script.length).toBeGreaterThanOrEqual(20);
  for (const change of script) await test.step(change.name, () => change.run(page));
  await expectWaiting(page, expected.length);
  expect(link.droppedBytes, 'the app did try to send through the dead link').toBeGreaterThan(0);

  // A reload with the link still dead: the navigation and the app's files hang on the network, so only
  // the service worker can bring the case screen back.
  const sentAgain = page.waitForRequest((request) => isCaseWrite(request), { timeout: 20_000 });
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
  await expect(page.getByRole('heading', { name: 'Case ...' }), 'after the reload: still the placeholder').toBeVisible({
    timeout: 15_000,
  });
  await expectScriptShown(page);
  await expectWaiting(page, expected.length);
  await sentAgain; // the reloaded outbox is trying again: its request hangs until the link is back

  // Coverage comes back. The browser hears nothing (it never knew it was gone): the requests hanging on
  // the dead connections fail when those are reset, and the outbox sends everything again, same keys.
  // After 8 answers it flickers: the answers stop coming back while requests still get through (the
  // server commits writes whose answers are lost), then every connection is reset and the link is back
  // for good. Whatever is sent again carries its first key: the server must answer it without a new event.
  const created = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/v4/twiageCases',
  );
  // Each write is one event, so once the server holds more events than the app has seen answered, a
  // committed write's answer is lost. (The next write may already have committed when the eighth answer
  // is seen: comparing with a count read after it would wait for a write the app never sends.)
  const answered = answeredWrites(page);
  const eightAnswered = answered.reached(8);
  link.restore();
  const caseId = ((await (await created).json()) as { id: string }).id;
  await eightAnswered;
  link.blackhole('answers');
  // Still so a moment later: an answer that was already on its way when the link broke is not lost.
  const unanswered = () => caseEvents(dataDir, caseId).length - answered.count();
  await expect(async () => {
    expect(unanswered(), 'a write committed while its answer is lost').toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(unanswered(), 'a write committed while its answer is lost').toBeGreaterThan(0);
  }).toPass({ timeout: 10_000 });
  link.cut();
  link.restore();
  await expectNothingWaiting(page, 60_000);
  const caseNumber = await caseNumberFromHeading(page);
  expect(caseIdByNumber(dataDir, caseNumber), `case ${caseNumber} on the server`).toBe(caseId);

  const changes = await waitForEvents(dataDir, caseId, expected.length);
  expect(changes, 'exactly the changes made, in order, each once').toEqual(expected);

  const server = await getCase(serverURL, await apiToken(serverURL, users.medic1.username), caseId);
  expect(server.complaint).toBe('stroke');
  expect(server.age).toBe(67);
  expect(server.gender).toBe('F');
  expect(server.destinationHospital).toEqual({ id: RIVERSIDE_REGIONAL_ID });
  expect(server.patientInfo.map((entry) => entry.value)).toEqual(['Ada', 'Lovelace', '1959-03-14']);
});

// The link comes back but the connection a write hangs on stays dead (nothing resets it): the outbox's
// request time-out (60 s) must give up on it and send again, or the case's queue would wait for ever.
// The page's clock is faked so the minute passes at once; everything else runs in real time.
test('a connection left dead after the link is back: the request time-out frees the queue', async ({ page, link }) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  await page.clock.install();
  await signInWithWarmServiceWorker(page);

  link.blackhole();
  const createSent = page.waitForRequest((request) => isCaseWrite(request));
  await startCase(page);
  await createSent;
  await chooseComplaint(page, 'Stroke', 'Deficits');
  await tapTag(page, 'Deficits', 'Left', true);
  await tapGender(page, 'Female', true);
  const expected = ['caseStarted', 'complaint stroke', `tag added ${STROKE_TAG.left}`, 'gender F'];
  await expectWaiting(page, expected.length);

  link.restore({ resetDamaged: false });
  // Long enough for a retry on a live connection to have been answered (they take milliseconds here):
  // still everything waiting means the queue is held by the request on the dead connection.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await expectWaiting(page, expected.length, 1_000);

  await page.clock.fastForward('01:00');
  await expectNothingWaiting(page);
  const caseId = caseIdByNumber(dataDir, await caseNumberFromHeading(page));
  expect(caseId).not.toBeNull();
  expect(await waitForEvents(dataDir, caseId!, expected.length), 'each change once, in order').toEqual(expected);
});
