import { chromium, expect, test as base, type Page, type Response } from '@playwright/test';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ageField,
  caseEvents,
  caseIdByNumber,
  caseNumberFromHeading,
  cutApi,
  expectNothingWaiting,
  expectWaiting,
  restoreApi,
  startCase,
  strokeScript,
  waitForEvents,
} from '../support/cases';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_SCREEN } from '../support/chromium';
import { signInToStart } from '../support/crew';
import { teams, users } from '../support/demo';
import { startOwnedServer, type OwnedServer } from '../support/server';

// Issue 3, No loss, the hard cases: the server process killed (SIGKILL) while the outbox is flushing and
// restarted on the same port and DATA_DIR; and the browser closed with changes pending and reopened on
// the same profile. Each test owns its server (it kills it) and reads that server's SQLite file for the
// event log. The service worker (another issue) is kept out: these test the outbox, and with a worker
// the API requests would leave from it, where the routes that cut the link do not see them.
const test = base.extend<{ server: OwnedServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured
    async ({}, use) => {
      const server = await startOwnedServer();
      await use(server);
      await server.stop();
    },
    { timeout: 60_000 },
  ],
});
test.use({ baseURL: async ({ server }, use) => use(server.url), serviceWorkers: 'block' });

const isCaseWrite = (response: Response) =>
  new URL(response.url()).pathname.startsWith('/v4/twiageCases') && response.request().method() !== 'GET';

/** Resolves after `count` more case writes have been answered by the server. */
function afterAnswers(page: Page, count: number): Promise<void> {
  return new Promise((resolve) => {
    let answered = 0;
    const onResponse = (response: Response) => {
      if (!isCaseWrite(response) || ++answered < count) return;
      page.off('response', onResponse);
      resolve();
    };
    page.on('response', onResponse);
  });
}

test('server killed mid-flush and restarted: every change reaches it exactly once', async ({
  page,
  context,
  server,
}) => {
  test.slow(); // a server start, a kill and a restart (tsx) on top of 23 taps
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  const script = strokeScript();
  const expected = ['caseStarted', ...script.flatMap((change) => change.events)];
  const before = script.slice(0, 16);
  const whileDown = script.slice(16);

  // Queue a case and 16 changes with no link (the API cut, as in the offline test).
  await cutApi(context);
  await startCase(page);
  for (const change of before) await test.step(change.name, () => change.run(page));
  const queuedBefore = 1 + before.flatMap((change) => change.events).length;
  await expectWaiting(page, queuedBefore);

  // The link comes back and the outbox flushes; after 4 writes are answered the server is SIGKILLed,
  // with the next ones in flight (committed or not: the outbox cannot know, and must not lose or repeat).
  const fourAnswered = afterAnswers(page, 4);
  await context.setOffline(true);
  await restoreApi(context);
  await context.setOffline(false);
  await fourAnswered;
  await server.kill();
  // It was mid-flush: the create has been answered (the number shows), not everything queued has.
  const caseNumber = await caseNumberFromHeading(page);
  const caseId = caseIdByNumber(server.dataDir, caseNumber);
  expect(caseId, `case ${caseNumber} on the server`).not.toBeNull();
  expect(caseEvents(server.dataDir, caseId!).length, 'killed before the flush was done').toBeLessThan(queuedBefore);

  // Changes made while the server is down: the browser is online, the server refuses connections.
  for (const change of whileDown) await test.step(`${change.name} (server down)`, () => change.run(page));
  await expect(page.getByRole('status').filter({ hasText: /waiting to send/ })).toBeVisible();

  await server.restart();
  // Coverage "returns" (offline, then online) so the outbox sends at once instead of at its next back-off.
  await context.setOffline(true);
  await context.setOffline(false);
  await expectNothingWaiting(page, 45_000);
  await expect(page.getByRole('heading', { name: `Case ${caseNumber}` })).toBeVisible();
  const changes = await waitForEvents(server.dataDir, caseId!, expected.length);
  expect(changes, 'every change once, in order, across the kill').toEqual(expected);
});

test('browser closed with changes pending, reopened on the same profile: they are delivered', async ({ server }) => {
  test.slow(); // two browser launches and a server start
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'inbound-e2e-profile-'));
  const launch = () =>
    chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      baseURL: server.url,
      serviceWorkers: 'block',
      ...PHONE_SCREEN,
      locale: 'en-US',
      timezoneId: 'UTC',
    });
  const script = strokeScript().slice(0, 12);
  const expected = ['caseStarted', ...script.flatMap((change) => change.events)];
  try {
    const first = await launch();
    const page = first.pages()[0] ?? (await first.newPage());
    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
    await cutApi(first);
    await startCase(page);
    for (const change of script) await test.step(change.name, () => change.run(page));
    await expectWaiting(page, expected.length);
    await first.close();

    const second = await launch();
    try {
      const reopened = second.pages()[0] ?? (await second.newPage());
      await reopened.goto('/');
      await expect(reopened.getByRole('heading', { name: /^Case / }), 'the case is still open').toBeVisible();
      await expect(ageField(reopened, 'Years')).toHaveValue('67');
      await expectNothingWaiting(reopened);
      const caseNumber = await caseNumberFromHeading(reopened);
      const caseId = caseIdByNumber(server.dataDir, caseNumber);
      expect(caseId, `case ${caseNumber} on the server`).not.toBeNull();
      const changes = await waitForEvents(server.dataDir, caseId!, expected.length);
      expect(changes, 'the pending changes, delivered once each, in order').toEqual(expected);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
});
