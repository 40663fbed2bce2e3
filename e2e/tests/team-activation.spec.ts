/**
 * Issue 15 item 1 in the browser: a crew's priority-1 stroke case lands on Riverside's board, which
 * proposes the Stroke team; ed1 activates it with one tap; the two members, each in a console of their
 * own, get the alert and answer "On my way"; the crew's case screen shows both names (and again after
 * the destination goes elsewhere and comes back). Then a second team for the same case that nobody
 * answers: with the server's clock moved (a private server, support/movableClock.ts) and the consoles'
 * clocks moved with it (Playwright's clock), the member is re-alerted every 2 minutes and at 20 minutes
 * the backup's console gets the alert; stand down ends it. Screenshots in e2e/.artifacts/screens/.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { authorizationHeader, buildPath, PushPayload, routes } from '@inbound/contract';
import { apiToken, caseNumberFromHeading, chooseComplaint, chooseHospital, startCase } from '../support/cases';
import { PHONE_SCREEN } from '../support/chromium';
import { signInToConsole } from '../support/console';
import { signInToStart, snap } from '../support/crew';
import { demoPassword, hospitals, teams, users } from '../support/demo';
import { SEED } from '../support/realtime';
import { startMovableClockServer, type MovableClockServer } from '../support/movableClock';
import { browserPushKeys, decryptPush, startPushCapture, type BrowserPushKeys } from '../support/webPush';

const ST_MARYS = "St. Mary's Hospital";

const MEMBERS = [
  { username: 'strokeneuro', displayName: 'Dr. Amara Okafor' },
  { username: 'strokerad', displayName: 'Dr. Lee Chen' },
] as const;
const BACKUP = { username: 'traumabackup', displayName: 'Dr. Sam Rivera' } as const;
const MINUTE = 60_000;

let server: MovableClockServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startMovableClockServer();
  addMembers(server.dataDir);
});
test.afterAll(async () => {
  await server?.stop();
});

/** Adds the two team members as Riverside ED staff, straight into the server's database (password as ed1's). */
function addMembers(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'inbound.db'), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    const ed1 = db.prepare('SELECT password_hash FROM users WHERE username = ?').get('ed1') as {
      password_hash: string;
    };
    const now = new Date().toISOString();
    for (const m of [...MEMBERS, BACKUP]) {
      db.prepare(
        `INSERT OR IGNORE INTO users (id, username, username_key, email, email_key, display_name, password_hash,
           disabled, features, roles, created_at, updated_at)
         VALUES (?, ?, ?, NULL, NULL, ?, ?, 0, '[]', '["edStaff"]', ?, ?)`,
      ).run(`user-${m.username}`, m.username, m.username, m.displayName, ed1.password_hash, now, now);
      db.prepare('INSERT OR IGNORE INTO hospital_staff (hospital_id, user_id) VALUES (?, ?)').run(
        SEED.riversideRegional,
        `user-${m.username}`,
      );
    }
  } finally {
    db.close();
  }
}

async function adminCall(baseURL: string, method: string, url: string, body?: unknown) {
  const token = await apiToken(baseURL, users.admin.username);
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      Authorization: authorizationHeader(token),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.status === 204 ? null : ((await response.json()) as { _id: string });
}

/** A console of the test's server; its clock is Playwright's, set to the server's time (moved with it). */
async function consoleContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  await context.clock.install({ time: await server.now() });
  return context;
}

async function memberConsole(browser: Browser, username: string, password = demoPassword('ed1')): Promise<Page> {
  const page = await (await consoleContext(browser)).newPage();
  await signInToConsole(page, username, password);
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText(/Live/);
  return page;
}

/**
 * "Team alerts on this device" from the board, for real but for the push service: headless Chromium has
 * none, so PushManager hands the console a subscription whose endpoint is the test's and whose keys the
 * test holds. The console registers its real service worker (alerts-sw.js) and sends the subscription.
 */
async function turnOnPhoneAlerts(page: Page, endpoint: string, keys: BrowserPushKeys): Promise<void> {
  await page.context().grantPermissions(['notifications'], { origin: server.url });
  await page.evaluate(
    ({ endpoint, p256dh, auth }) => {
      const json = { endpoint, expirationTime: null, keys: { p256dh, auth } };
      let current: (typeof json & { toJSON: () => typeof json }) | null = null;
      Object.defineProperty(PushManager.prototype, 'getSubscription', { value: () => Promise.resolve(current) });
      Object.defineProperty(PushManager.prototype, 'subscribe', {
        value: () => {
          current = { ...json, toJSON: () => json };
          return Promise.resolve(current);
        },
      });
    },
    { endpoint, p256dh: keys.p256dh, auth: keys.authText },
  );
  await page.getByRole('button', { name: 'Team alerts on this device' }).first().click();
  await expect(page.getByText('Team alerts on this device: on').first()).toBeVisible();
}

/** Delivers a push message to the page's console service worker as a push service would (DevTools). */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted && r.scopeURL.endsWith('/hospital/'));
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(server.url).origin,
    registrationId: await registrationId,
    data,
  });
  await cdp.detach();
}

test('a priority-1 stroke case proposes the Stroke team; both members answer, the crew sees both names; an unanswered team re-alerts every 2 min and escalates to the backup at 20', async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const base = server.url;
  const riverside = { id: SEED.riversideRegional };
  await adminCall(base, 'POST', buildPath(routes.createTeam.path, riverside), {
    kind: 'stroke',
    name: 'Stroke',
    members: MEMBERS.map((m) => ({ userId: `user-${m.username}`, backup: false })),
  });
  const trauma = await adminCall(base, 'POST', buildPath(routes.createTeam.path, riverside), {
    kind: 'trauma',
    name: 'Trauma',
    members: [
      { userId: `user-${MEMBERS[0].username}`, backup: false },
      { userId: `user-${BACKUP.username}`, backup: true },
    ],
  });
  expect(trauma).not.toBeNull();
  const ed = await memberConsole(browser, users.ed1.username, demoPassword('ed1'));
  const neuro = await memberConsole(browser, MEMBERS[0].username);
  const phone = await memberConsole(browser, MEMBERS[1].username);
  const members = [neuro, phone];
  const backup = await memberConsole(browser, BACKUP.username);
  // The second member turns phone alerts on before any alert (from the board's toolbar).
  const pushService = await startPushCapture();
  const phoneKeys = browserPushKeys();
  await turnOnPhoneAlerts(phone, pushService.endpoint('lee-chen'), phoneKeys);
  const crewContext = await browser.newContext({
    baseURL: server.url,
    ...PHONE_SCREEN,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const crew = await crewContext.newPage();

  await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseComplaint(crew, 'Stroke', 'Onset');
  // Destination advice: the comprehensive stroke centre is the advised choice (starred on a phone).
  await expect(
    crew.getByRole('group', { name: 'Destination hospital' }).getByRole('button', {
      name: new RegExp(`^${hospitals.riversideRegional} \\(advised\\)`),
    }),
  ).toBeVisible();
  await snap(crew, testInfo, 'destination-advice-phone', { fullPage: false });
  await chooseHospital(crew, hospitals.riversideRegional);

  // The board proposes the Stroke team for this case as soon as it lands.
  const proposal = ed.getByRole('region', { name: 'Proposed team activations' }).getByRole('status').filter({
    hasText: caseNumber,
  });
  await expect(proposal).toContainText('activate the Stroke team?');
  await snap(ed, testInfo, 'team-activation-proposal', { fullPage: false });
  await proposal.getByRole('button', { name: 'Activate Stroke team' }).click();
  await expect(proposal).toBeHidden();

  // Web Push, end to end: the server's push request reached the (stand-in) push service, encrypted
  // (aes128gcm) and signed (VAPID); decrypted as the browser would, it says the team, the case number and
  // the hospital — nothing about the patient.
  await expect.poll(() => pushService.received.filter((r) => r.path === '/push/lee-chen').length).toBe(1);
  const request = pushService.received.find((r) => r.path === '/push/lee-chen');
  expect(request?.headers['content-encoding']).toBe('aes128gcm');
  expect(request?.headers.authorization).toMatch(/^vapid t=.+, k=.+/);
  const plain = decryptPush(request?.body ?? Buffer.alloc(0), phoneKeys);
  const payload = PushPayload.parse(JSON.parse(plain));
  const caseId = payload.caseId ?? '';
  expect(JSON.parse(plain)).toEqual({
    type: 'team.alert',
    title: 'Stroke team activated',
    body: `Case ${caseNumber} to ${hospitals.riversideRegional}. Tap to answer "On my way".`,
    url: `/hospital/case/${SEED.riversideRegional}/${caseId}`,
    caseId,
    transferId: null,
  });
  // Delivered to the console's real service worker as the push service would: it shows the notification.
  await deliverPush(phone, plain);
  const shown = () =>
    phone.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration('/hospital/');
      return (await registration?.getNotifications())?.map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        url: (n.data as { url: string }).url,
        requireInteraction: n.requireInteraction,
      }));
    });
  await expect.poll(shown).toEqual([
    {
      title: 'Stroke team activated',
      body: `Case ${caseNumber} to ${hospitals.riversideRegional}. Tap to answer "On my way".`,
      tag: `team-${caseId}`,
      url: `/hospital/case/${SEED.riversideRegional}/${caseId}`,
      requireInteraction: true,
    },
  ]);
  // Its tap (a notificationclick, dispatched in the worker: headless Chromium has no notification to
  // tap) takes the open console to the case, and the notification goes.
  const worker = phone
    .context()
    .serviceWorkers()
    .find((w) => w.url().endsWith('/hospital/alerts-sw.js'));
  expect(worker, "the console's alert service worker runs").toBeDefined();
  await worker?.evaluate(`(async () => {
    const [notification] = await self.registration.getNotifications();
    try {
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    } catch (error) {
      // waitUntil refuses an event the page made; what the listener started still runs.
    }
  })()`);
  await expect(phone).toHaveURL(new RegExp(`/hospital/case/${SEED.riversideRegional}/${caseId}$`));
  await expect(phone.getByRole('heading', { level: 1, name: /Stroke/ })).toBeVisible();
  await expect.poll(shown).toEqual([]);
  await snap(phone, testInfo, 'team-activation-push-opened-case', { fullPage: false });
  await pushService.stop();

  // Each member's console shows the alert on whatever screen it is; each answers.
  for (const [i, member] of members.entries()) {
    const alert = member.getByTestId('team-alert').filter({ hasText: `Case ${caseNumber}` });
    await expect(alert).toContainText('Stroke team activated');
    if (i === 0) await snap(member, testInfo, 'team-activation-member-alert', { fullPage: false });
    await alert.getByRole('button', { name: 'On my way' }).click();
    await expect(alert).toBeHidden();
  }
  // The backup of another team was not called.
  await expect(backup.getByTestId('team-alert')).toHaveCount(0);

  // The crew's case screen names both, with the time each answered.
  const onTheWay = crew.getByTestId('teams-on-the-way');
  await expect(onTheWay).toContainText('Stroke team');
  await expect(onTheWay).toContainText(`${MEMBERS[0].displayName} ✓`);
  await expect(onTheWay).toContainText(`${MEMBERS[1].displayName} ✓`);
  await snap(crew, testInfo, 'team-activation-crew', { fullPage: false });

  // Another destination: its line goes; back to Riverside, whose team is still activated: the line
  // is back with both names, with no reload (the crew reads the destination's activations again).
  await chooseHospital(crew, ST_MARYS);
  await expect(onTheWay).toHaveCount(0);
  await chooseHospital(crew, hospitals.riversideRegional);
  await expect(onTheWay).toContainText(`${MEMBERS[0].displayName} ✓`);
  await expect(onTheWay).toContainText(`${MEMBERS[1].displayName} ✓`);

  // The board has it on again, not under "No longer coming here".
  await expect(ed.getByTestId('case-card').filter({ hasText: caseNumber })).toBeVisible();
  await expect(ed.getByTestId('diverted-away').filter({ hasText: caseNumber })).toHaveCount(0);

  // The ED's case detail: both on the way, with the times.
  await ed.getByTestId('case-card').filter({ hasText: caseNumber }).click();
  const panel = ed.getByRole('region', { name: 'Team activation' });
  const stroke = panel.getByTestId('activation').filter({ hasText: 'Stroke team' });
  await expect(stroke).toContainText('2 of 2 on the way');
  await expect(stroke).toContainText(`${MEMBERS[0].displayName}`);
  await expect(stroke.getByText(/✓ On my way \d\d:\d\d/)).toHaveCount(2);
  await panel.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'team-activation-case-detail', { fullPage: false });

  // A second team for the same case, which nobody answers.
  await panel.getByRole('button', { name: 'Activate Trauma team' }).click();
  const traumaCard = panel.getByTestId('activation').filter({ hasText: 'Trauma team' });
  await expect(traumaCard).toContainText('0 of 2 on the way');
  await expect(traumaCard.getByText('Not called')).toBeVisible();
  const memberAlert = neuro.getByTestId('team-alert').filter({ hasText: 'Trauma team activated' });
  await expect(memberAlert).toContainText(`Case ${caseNumber}`);
  await expect(memberAlert).not.toContainText('alert 2');
  const backupAlert = backup.getByTestId('team-alert').filter({ hasText: 'Trauma team activated' });

  // Time passes in 2-minute steps on the server and in the consoles, someone touching the ED's and the
  // member's consoles in between (the consoles lock after 15 idle minutes). Nobody touches the backup's:
  // it locks, and the escalation has to reach it over the lock. Each step is a round: the member is
  // alerted again.
  const consoles = [ed, neuro, backup];
  for (let round = 2; round <= 11; round++) {
    await server.advance(2 * MINUTE);
    for (const c of consoles) {
      await c.clock.fastForward(2 * MINUTE);
      if (c !== backup) await c.keyboard.press('Shift');
    }
    if (round === 2) {
      await expect(memberAlert).toContainText('alert 2');
      await snap(neuro, testInfo, 'team-activation-realert', { fullPage: false });
    }
    if (round === 10) {
      // 18 minutes: still only the members; the backup has not been called.
      await expect(memberAlert).toContainText('alert 10');
      await expect(backupAlert).toHaveCount(0);
      await expect(traumaCard.getByText('Not called')).toBeVisible();
    }
  }
  // 20 minutes: escalated — the backup's console, locked since minute 15, shows the alert's summary on
  // the lock screen (team, hospital, escalated; no case number), and "On my way" waits for the unlock.
  const lock = backup.getByRole('dialog', { name: 'Console locked' });
  const lockAlert = lock.getByTestId('lock-alert').filter({ hasText: 'Trauma team activated' });
  await expect(lockAlert).toContainText(`Case arriving at ${hospitals.riversideRegional}`);
  await expect(lockAlert).toContainText('escalated to backups');
  await expect(lockAlert).not.toContainText(caseNumber);
  await expect(lock.getByRole('button', { name: 'On my way' })).toHaveCount(0);
  await snap(backup, testInfo, 'team-activation-escalated-over-lock', { fullPage: false });
  await lock.getByLabel('Password or authenticator code').fill(demoPassword('ed1'));
  await lock.getByRole('button', { name: 'Unlock' }).click();
  await expect(lock).toHaveCount(0);
  await expect(backupAlert).toContainText(`Case ${caseNumber}`);
  await expect(backupAlert).toContainText('escalated to backups'); // not the first members' "alert 11"
  await expect(backupAlert.getByRole('button', { name: 'On my way' })).toBeVisible();
  await snap(backup, testInfo, 'team-activation-escalated-backup', { fullPage: false });
  await expect(traumaCard).toContainText(/escalated to backups \d\d:\d\d/);
  await expect(traumaCard.getByText('Not called')).toHaveCount(0);
  await traumaCard.scrollIntoViewIfNeeded();
  await snap(ed, testInfo, 'team-activation-escalated-case-detail', { fullPage: false });

  // Stand down ends it: both alerts go.
  await traumaCard.getByRole('button', { name: /^Stand down/ }).click();
  await traumaCard.getByRole('button', { name: 'Stand down the Trauma team' }).click();
  await expect(traumaCard).toContainText('stood down');
  await expect(backupAlert).toHaveCount(0);
  await expect(memberAlert).toHaveCount(0);
});
