import { expect, test, type Browser, type Page } from '@playwright/test';
import { caseEvents, caseIdByNumber, caseNumberFromHeading, chooseHospital, startCase } from '../support/cases';
import { signInToConsole } from '../support/console';
import { chooseTeam, chooseTruck, signIn, snap } from '../support/crew';
import { probeAudio, recordingHospital, type RecordingHospital } from '../support/recordingHospital';
import { FAKE_MEDIA_LAUNCH } from '../support/webrtc';

// Issue 12: a recorded call (its department allowsToRecord) is really recorded by the console that
// answers — both voices mixed by Web Audio, MediaRecorder, uploaded as the case's `callrecording`,
// converted to MP3 by the server — and plays in the console's case detail. The hospital, its team, crew
// and nurse are this test's own, so no other test's call is recorded.
test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

async function consoleOf(browser: Browser, place: RecordingHospital): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const nurse = await context.newPage();
  await signInToConsole(nurse, place.ed.username, place.ed.password);
  await expect(nurse.getByRole('heading', { level: 1, name: place.hospitalName })).toBeVisible();
  await expect(nurse.getByTestId('connection')).toHaveText(/Live/);
  return nurse;
}

/** The crew signs in, starts a case for the recording hospital and calls it; the console answers. */
async function crewCallsAndConsoleAnswers(crew: Page, nurse: Page, place: RecordingHospital) {
  await signIn(crew, place.crew.username, place.crew.password);
  await chooseTeam(crew, place.teamName);
  await chooseTruck(crew, place.truckName);
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseHospital(crew, place.hospitalName);
  await crew.getByRole('button', { name: 'Call the emergency department' }).click();
  await nurse.getByTestId('incoming-call').getByRole('button', { name: 'Answer' }).click();
  const callScreen = crew.getByRole('dialog', { name: `Call with ${place.hospitalName}` });
  await expect(callScreen.getByTestId('call-state')).toHaveText(/^\d\d:\d\dREC$/, { timeout: 15_000 });
  await expect(nurse.getByTestId('console-call-state')).toHaveText(/^\d\d:\d\dREC$/, { timeout: 15_000 });
  return { caseNumber, callScreen };
}

/** Waits until the console's call timer reads at least `seconds` (mm:ss, then REC): talk that long. */
async function talkedFor(nurse: Page, seconds: number) {
  await expect
    .poll(
      async () => {
        const [mm, ss] = ((await nurse.getByTestId('console-call-state').textContent()) ?? '').split(/[:R]/);
        return Number(mm) * 60 + Number(ss);
      },
      { timeout: 30_000, message: `the call runs ${seconds} s` },
    )
    .toBeGreaterThanOrEqual(seconds);
}

/** The case detail's recording: listed, converted, and it plays (duration known, time advances). */
async function expectRecordingPlays(nurse: Page, caseNumber: string, options: { partial: boolean }) {
  const item = nurse.locator('.media-item-callrecording');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  await expect(item).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(item.locator('.media-type')).toHaveText(options.partial ? 'Call recording (partial)' : 'Call recording');
  const audio = item.locator('audio');
  await expect(audio).toHaveAttribute('src', /\/call/);
  const played = await audio.evaluate(async (element: HTMLAudioElement) => {
    element.muted = true; // headless autoplay rules
    if (element.readyState < 1) await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve));
    const duration = element.duration;
    await element.play();
    const start = element.currentTime;
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const check = () => {
        if (element.currentTime > start + 0.2) resolve();
        else if (element.error) reject(new Error(`media error ${element.error.code}`));
        else if (Date.now() > deadline) reject(new Error(`stuck at ${element.currentTime}`));
        else setTimeout(check, 50);
      };
      check();
    });
    element.pause();
    return { duration, currentTime: element.currentTime };
  });
  expect(played.duration, `the recording of case ${caseNumber} has a length`).toBeGreaterThan(1);
  expect(played.currentTime).toBeGreaterThan(0.2);

  // What the server serves: MP3, as long as the player says, and not silence (the fake microphones beep).
  const src = (await audio.getAttribute('src'))!;
  // A media link: it works without the Authorization header, as the <audio> element loads it.
  const response = await nurse.request.get(src);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('audio/mpeg');
  const probed = probeAudio(await response.body());
  expect(probed.codec).toBe('mp3');
  expect(probed.durationSeconds).toBeGreaterThan(1);
  expect(Math.abs(probed.durationSeconds - played.duration)).toBeLessThan(1);
  expect(probed.maxVolumeDb, 'the recording carries sound').toBeGreaterThan(-40);
  return probed;
}

test('a recorded call: REC on both sides, the console records both voices, the case detail plays the MP3', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.slow();
  const place = await recordingHospital(baseURL!);
  const nurse = await consoleOf(browser, place);
  const { caseNumber, callScreen } = await crewCallsAndConsoleAnswers(page, nurse, place);
  await snap(page, testInfo, '94-crew-call-recorded', { fullPage: false });
  await snap(nurse, testInfo, '95-console-call-recorded', { fullPage: false });
  // Talk a few seconds (the console's own timer says when).
  await talkedFor(nurse, 4);
  await nurse.getByRole('button', { name: 'Hang up' }).click();
  await expect(callScreen).toBeHidden({ timeout: 10_000 });

  const caseId = caseIdByNumber(process.env.E2E_DATA_DIR!, caseNumber)!;
  await expect
    .poll(() => caseEvents(process.env.E2E_DATA_DIR!, caseId).filter((e) => e.type === 'callrecording').length, {
      timeout: 20_000,
    })
    .toBe(1);

  await nurse.goto(`/hospital/case/${place.hospitalId}/${caseId}`);
  const probed = await expectRecordingPlays(nurse, caseNumber, { partial: false });
  expect(probed.durationSeconds, 'about the call, not a fragment of it').toBeGreaterThan(3);
  await snap(nurse, testInfo, '96-console-case-call-recording');
  await nurse.context().close();
});

// Decision 0042: the console keeps the recording's one-second pieces in IndexedDB as they come. The nurse's
// tab is closed mid-call (nothing was uploaded: the call had not ended); when the console next starts —
// the same nurse signs in on that computer — it sends what was kept, marked partial, and it plays.
test('a console closed mid-call: its next start sends the partial recording, which plays in the case detail', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.slow();
  const place = await recordingHospital(baseURL!);
  const nurse = await consoleOf(browser, place);
  const { caseNumber } = await crewCallsAndConsoleAnswers(page, nurse, place);
  await talkedFor(nurse, 4);
  const caseId = caseIdByNumber(process.env.E2E_DATA_DIR!, caseNumber)!;
  await nurse.close(); // the tab, mid-call; the browser profile (its IndexedDB) stays
  expect(caseEvents(process.env.E2E_DATA_DIR!, caseId).filter((e) => e.type === 'callrecording')).toEqual([]);

  const reopened = await nurse.context().newPage();
  await signInToConsole(reopened, place.ed.username, place.ed.password);
  await expect(reopened.getByRole('heading', { level: 1, name: place.hospitalName })).toBeVisible();
  await expect
    .poll(() => caseEvents(process.env.E2E_DATA_DIR!, caseId).filter((e) => e.type === 'callrecording'), {
      timeout: 20_000,
    })
    .toEqual([expect.objectContaining({ payload: expect.objectContaining({ partial: true }) })]);

  await reopened.goto(`/hospital/case/${place.hospitalId}/${caseId}`);
  const probed = await expectRecordingPlays(reopened, caseNumber, { partial: true });
  expect(probed.durationSeconds, 'the seconds recorded before the tab closed').toBeGreaterThan(3);
  await snap(reopened, testInfo, '97-console-case-partial-call-recording');

  // Signing in again sends nothing twice: the store was emptied once the server had it.
  await reopened.reload();
  await expect(reopened.locator('.media-item-callrecording')).toHaveCount(1);
  expect(await reopened.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name)))).toContain(
    'inbound-call-recordings',
  );
  const left = await reopened.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('inbound-call-recordings');
        open.onerror = () => reject(new Error('cannot open'));
        open.onsuccess = () => {
          const count = open.result.transaction('chunks').objectStore('chunks').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
  expect(left, 'no piece of the recording left on the computer').toBe(0);
  await reopened.context().close();
});
