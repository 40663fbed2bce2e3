/**
 * Issue 15 items 2–4 in the browser, crew and ED together:
 * 1. a real GPS track (gpsd's haicom-305N capture, a receiver wandering ~45 m), moved to lie across
 *    Riverside Regional's geofence boundary, is replayed as the crew's position reports → the case
 *    arrives once (one event), the ED board shows it in the Arrived lane with its offload timer, the
 *    crew's screen shows the timer; the ED accepts the hand-over → the crew reads "Handoff accepted by
 *    Taylor Brooks", the timer is gone; a console under its idle lock shows the offload alert over the
 *    lock, without the case; the offload report counts the case and exports it as CSV;
 * 2. the ED diverts an inbound case with a reason → the crew is alerted (dialog, banner, reason), is
 *    warned before a hospital in a critical status, chooses St. Mary's → Riverside's board says
 *    "diverted to St. Mary's Hospital", St. Mary's ED has the case with its history.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { authorizationHeader, DEFAULT_ARRIVAL_RADIUS_M, straightLineKm } from '@inbound/contract';
import { decodeNmeaSentence } from '@inbound/gps';
import { GPS_DATA_MISSING, gpsDataDir } from '@inbound/gps/testData';
import {
  apiToken,
  caseEvents,
  caseIdByNumber,
  caseNumberFromHeading,
  chooseHospital,
  startCase,
} from '../support/cases';
import { axeViolations, describeViolations } from '../support/axe';
import { consolePage, signInToConsole } from '../support/console';
import { signInToStart, snap } from '../support/crew';
import { demoPassword, hospitals, teams, users } from '../support/demo';

const RIVERSIDE_AT = { latitude: 41.4993, longitude: -81.6944 };
const ST_MARYS = "St. Mary's Hospital";
const ST_MARYS_ID = 'hospital-st-marys';
const RIVERSIDE_ID = 'hospital-riverside-regional';
const dataDir = gpsDataDir();
const M_PER_DEG_LAT = 111_320;
const mPerDegLon = (lat: number) => M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);

/** The capture's fixes, moved so their centre lies one default radius west of the hospital. */
function trackAcrossTheBoundary(): { latitude: number; longitude: number; offsetMs: number }[] {
  const text = readFileSync(join(dataDir!, 'nmea-gpsd', 'haicom-305N.log'), 'latin1');
  const fixes = text
    .split(/\r?\n/)
    .map((l) => decodeNmeaSentence(l.trim()))
    .flatMap((o) => (o.kind === 'fix' ? [o.fix] : []));
  const cLat = fixes.reduce((s, f) => s + f.lat, 0) / fixes.length;
  const cLon = fixes.reduce((s, f) => s + f.lon, 0) / fixes.length;
  const t0 = Date.parse(fixes[0]!.time);
  return fixes.map((f) => {
    const north = (f.lat - cLat) * M_PER_DEG_LAT;
    const east = (f.lon - cLon) * mPerDegLon(cLat) - DEFAULT_ARRIVAL_RADIUS_M;
    return {
      latitude: RIVERSIDE_AT.latitude + north / M_PER_DEG_LAT,
      longitude: RIVERSIDE_AT.longitude + east / mPerDegLon(RIVERSIDE_AT.latitude),
      offsetMs: Date.parse(f.time) - t0,
    };
  });
}

async function call(baseURL: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      Authorization: authorizationHeader(token),
      'Idempotency-Key': randomUUID(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

async function crewOnCase(browser: Browser): Promise<{ crew: Page; caseNumber: string }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    timezoneId: 'UTC',
  });
  const crew = await context.newPage();
  await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseHospital(crew, hospitals.riversideRegional);
  return { crew, caseNumber };
}

test('geofence arrival from a replayed GPS track (once), handoff accepted, the timer stops, the report counts it', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.skip(!dataDir, GPS_DATA_MISSING);
  test.setTimeout(120_000);
  const ed = await consolePage(browser);
  const { crew, caseNumber } = await crewOnCase(browser);
  const caseId = caseIdByNumber(process.env.E2E_DATA_DIR!, caseNumber)!;
  expect(caseId).toBeTruthy();

  const track = trackAcrossTheBoundary();
  const inside = track.map((p) => straightLineKm(p, RIVERSIDE_AT) * 1000 <= DEFAULT_ARRIVAL_RADIUS_M);
  // The premise: the replayed track really goes in and out at the boundary.
  expect(inside.filter((v, i) => i > 0 && v !== inside[i - 1]).length).toBeGreaterThanOrEqual(2);
  const token = await apiToken(baseURL!, users.medic1.username);
  const start = Date.now() - track.at(-1)!.offsetMs - 1_000;
  for (const p of track) {
    await call(baseURL!, token, 'POST', `/v4/twiageCases/${caseId}/locationUpdates`, {
      latitude: p.latitude,
      longitude: p.longitude,
      accuracy: 10,
      recordedAt: new Date(start + p.offsetMs).toISOString(),
    });
  }
  const arrivals = caseEvents(process.env.E2E_DATA_DIR!, caseId).filter((e) => e.type === 'arrivedAtDestination');
  expect(arrivals).toHaveLength(1);
  expect(arrivals[0]!.payload).toMatchObject({ source: 'geofence' });

  const arrived = ed.getByTestId('arrived-card').filter({ hasText: caseNumber });
  await expect(arrived).toBeVisible();
  await expect(arrived).toContainText('by GPS at the door');
  await expect(arrived.getByTestId('offload-timer')).toHaveText(/^\d+:\d\d$/);
  await expect(ed.getByTestId('case-card').filter({ hasText: caseNumber })).toHaveCount(0);
  await expect(crew.getByTestId('offload-timer')).toContainText('waiting for handoff');
  // Another truck that has stood at the door for 34 minutes (its reports came late, after a dead
  // spot): past the 30-minute threshold its card is amber and the charge nurse is alerted.
  const waiting = (await call(baseURL!, token, 'POST', `/v4/twiageCases?placeholderId=placeholder-${randomUUID()}`, {
    emsAgency: 'agency-riverside-ems',
    truck: 'truck-riverside-ambulance-5',
    beganAt: new Date(Date.now() - 60 * 60_000).toISOString(),
  })) as { id: string; caseNumber: string };
  await call(baseURL!, token, 'PATCH', `/v4/twiageCases/${waiting.id}`, { destinationHospital: RIVERSIDE_ID });
  for (const minutesAgo of [35, 34]) {
    await call(baseURL!, token, 'POST', `/v4/twiageCases/${waiting.id}/locationUpdates`, {
      ...RIVERSIDE_AT,
      accuracy: 10,
      recordedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    });
  }
  const late = ed.getByTestId('arrived-card').filter({ hasText: waiting.caseNumber });
  await expect(late).toHaveClass(/offload-over/);
  await expect(late).toContainText('Over 30 min: the charge nurse is alerted.');
  await expect(ed.getByRole('alert').filter({ hasText: 'Charge nurse: offload over 30 min' })).toContainText(
    waiting.caseNumber,
  );
  await expect(arrived).not.toHaveClass(/offload-over/);
  // A console under its idle lock (it survives a reload) shows the alert over the lock without the case
  // or the truck (decision 0035); the password opens the board again.
  await ed.evaluate(() => localStorage.setItem('inbound.console.locked', '1'));
  await ed.reload();
  const lock = ed.getByRole('dialog', { name: 'Console locked' });
  const lockAlert = lock.getByTestId('lock-alert').filter({ hasText: 'Charge nurse: offload over 30 min' });
  await expect(lockAlert).toContainText('1 ambulance waits for handoff');
  await expect(lockAlert).not.toContainText(waiting.caseNumber);
  await snap(ed, testInfo, 'arrival-offload-over-lock', { fullPage: false });
  await lock.getByLabel('Password or authenticator code').fill(demoPassword(users.ed1.username));
  await lock.getByRole('button', { name: 'Unlock' }).click();
  await expect(lock).toHaveCount(0);
  await expect(ed.getByTestId('connection')).toHaveText(/Live/);
  await snap(ed, testInfo, 'arrival-board-arrived-lane', { fullPage: false });
  const boardViolations = await axeViolations(ed, 'board with the Arrived lane');
  expect(boardViolations, describeViolations(boardViolations)).toEqual([]);
  await snap(crew, testInfo, 'arrival-crew-offload-timer', { fullPage: false });

  await arrived.getByRole('button', { name: 'Accept handoff' }).click();
  await expect(arrived).toHaveCount(0);
  await expect(crew.getByTestId('handoff-accepted')).toHaveText(
    new RegExp(`Handoff accepted by ${users.ed1.displayName} \\d\\d:\\d\\d`),
  );
  await expect(crew.getByTestId('offload-timer')).toHaveCount(0); // the timer stopped
  await snap(crew, testInfo, 'arrival-crew-handoff-accepted', { fullPage: false });
  await late.getByRole('button', { name: 'Accept handoff' }).click(); // the next test's board starts clear
  await expect(late).toHaveCount(0);
  expect(caseEvents(process.env.E2E_DATA_DIR!, caseId).filter((e) => e.type === 'handoffAccepted')).toHaveLength(1);

  await ed.getByRole('link', { name: /Offload report/ }).click();
  await expect(ed.getByRole('heading', { level: 1, name: /Offload report/ })).toBeVisible();
  await expect(ed.getByTestId('report-arrivals')).not.toHaveText('0');
  await expect(ed.locator('.report-chart canvas')).toHaveCount(3);
  const download = ed.waitForEvent('download');
  await ed.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  const row = csv.split('\r\n').find((line) => line.startsWith(`${caseNumber},`));
  expect(row, 'the case is a row of the CSV').toBeTruthy();
  expect(row).toContain(`geofence`);
  expect(row).toContain(users.ed1.displayName);
  await snap(ed, testInfo, 'arrival-offload-report');
  const reportViolations = await axeViolations(ed, 'offload report');
  expect(reportViolations, describeViolations(reportViolations)).toEqual([]);
  await crew.context().close();
  await ed.context().close();
});

/** A St. Mary's ED user made through the admin API, with a password of its own (no one-time password). */
async function stMarysEd(baseURL: string): Promise<{ username: string; password: string }> {
  const admin = await apiToken(baseURL, users.admin.username);
  const username = `edsm${randomUUID().slice(0, 8)}`;
  const invited = (await call(baseURL, admin, 'POST', '/v4/admin/users', {
    username,
    displayName: 'Robin Ellis',
    kind: 'edStaff',
    hospitals: [ST_MARYS_ID],
  })) as { oneTimePassword: string };
  const signIn = await fetch(`${baseURL}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: invited.oneTimePassword, twiageClient: 'hospital', platform: 'web' }),
  });
  const token = ((await signIn.json()) as { authorizationToken: { token: string } }).authorizationToken.token;
  const password = `Tulip-Harbour-${randomUUID()}`;
  await call(baseURL, token, 'POST', '/v4/users/password', {
    currentPassword: invited.oneTimePassword,
    newPassword: password,
    verifyPassword: password,
  });
  return { username, password };
}

test('divert: the crew is alerted with the reason, warned before a critical hospital, picks another; both boards right', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const ed = await consolePage(browser);
  const { crew, caseNumber } = await crewOnCase(browser);
  const card = ed.getByTestId('case-card').filter({ hasText: caseNumber });
  await card.click();
  await ed.getByRole('button', { name: 'Divert…' }).click();
  await ed.getByLabel('Reason for the crew').fill('CT scanner down, stroke team busy');
  await ed.getByRole('button', { name: 'Divert this ambulance' }).click();
  await expect(ed.getByText(/Waiting for the crew to choose another hospital/)).toBeVisible();

  const alert = crew.getByRole('alertdialog', { name: 'Diverted' });
  await expect(alert).toContainText(
    `${hospitals.riversideRegional} diverted this ambulance: CT scanner down, stroke team busy`,
  );
  await expect(crew.getByTestId('diversion-banner')).toContainText('CT scanner down');
  await snap(crew, testInfo, 'diversion-crew-alert', { fullPage: false });
  const alertViolations = await axeViolations(crew, 'crew diversion alert');
  expect(alertViolations, describeViolations(alertViolations)).toEqual([]);
  await alert.getByRole('button', { name: 'Choose Hospital' }).click();
  const picker = crew.getByRole('dialog', { name: 'Select Hospital' });
  await picker.getByRole('button', { name: /^Mercy General Hospital/ }).click();
  const warning = crew.getByRole('alertdialog', { name: 'Warning' });
  await expect(warning).toContainText('Mercy General Hospital reports a critical status: CT Scanner Down.');
  await snap(crew, testInfo, 'diversion-crew-critical-warning', { fullPage: false });
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await chooseHospital(crew, ST_MARYS);
  await expect(crew.getByTestId('diversion-banner')).toHaveCount(0);

  // The case detail page the ED had open says calmly where the case goes now — no error.
  const left = ed.getByTestId('case-left');
  await expect(left.getByRole('heading', { name: `Now going to ${ST_MARYS}` })).toBeVisible();
  await expect(left).toContainText(`Case ${caseNumber} is no longer coming here`);
  await expect(ed.getByRole('alert')).toHaveCount(0);
  await snap(ed, testInfo, 'diversion-open-detail-now-going', { fullPage: false });
  await ed.goto('/hospital/');
  await expect(ed.getByTestId('diverted-away').filter({ hasText: caseNumber })).toContainText(
    `diverted to ${ST_MARYS}`,
  );
  await expect(ed.getByTestId('case-card').filter({ hasText: caseNumber })).toHaveCount(0);
  await snap(ed, testInfo, 'diversion-old-board', { fullPage: false });

  const account = await stMarysEd(baseURL!);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const stMarys = await context.newPage();
  await signInToConsole(stMarys, account.username, account.password);
  const newCard = stMarys.getByTestId('case-card').filter({ hasText: caseNumber });
  await expect(newCard).toBeVisible();
  await newCard.click();
  const timeline = stMarys.getByRole('region', { name: /Timeline/i });
  await expect(
    timeline.getByText(/Diverted by Taylor Brooks \(Riverside Regional Medical Center\): CT scanner down/),
  ).toBeVisible();
  await expect(timeline.getByText(`Destination set to ${ST_MARYS}`)).toBeVisible();
  await snap(stMarys, testInfo, 'diversion-new-hospital-case');
  await context.close();
  await crew.context().close();
  await ed.context().close();
});
