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
  await expect(nurse.getByTestId('console-call-state')).toHaveText(/^00:0[4-9]/, { timeout: 20_000 });
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
