import { expect, test } from '@playwright/test';
import { messages } from '@inbound/contract';
import {
  apiToken,
  caseEvents,
  caseIdByNumber,
  caseNumberFromHeading,
  chooseComplaint,
  chooseHospital,
  crewChanges,
  expectNothingWaiting,
  getCase,
  RIVERSIDE_REGIONAL_ID,
  setAge,
  startCase,
  STROKE_TAG,
  tagButton,
  tapGender,
  tapTag,
} from '../support/cases';
import { atPath, offTheScreen, signInToStart, snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';

// Issue 3, Browser: medic1 runs a whole stroke case on Riverside, and the server's case matches what was
// entered, field for field. Seed ids: apps/server/src/seed/complaint-sets.ts (tag ids are
// `{complaint}.{section slug}.{tag slug}`) and demo-data.ts.
const TAG = STROKE_TAG;
const RIVERSIDE_REGIONAL = RIVERSIDE_REGIONAL_ID;
const LAST_KNOWN_WELL = '2026-11-21T23:30'; // what the medic types (the page runs in UTC)

test('medic1 runs a stroke case on Riverside and the server holds it field for field @tablet', async ({
  page,
  baseURL,
}, testInfo) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(page);
  await expect(page).toHaveURL(atPath('/case'));
  const caseNumber = await caseNumberFromHeading(page);
  expect(caseNumber).not.toBe('...');
  await expect(page.getByRole('button', { name: /^Stroke Priority 1$/ })).toBeVisible();
  await snap(page, testInfo, '20-case-complaints', { fullPage: false });
  // Nothing off the screen or cut on a small phone (320), a common Android (360, 412) or a portrait tablet.
  const viewport = page.viewportSize()!;
  for (const width of [320, 360, 412, 768]) {
    await page.setViewportSize({ width, height: viewport.height });
    expect(await offTheScreen(page)).toEqual([]);
  }
  await page.setViewportSize(viewport);

  // Close before anything is chosen: the hospital warning, whose OK opens the hospital picker.
  await page.getByRole('button', { name: 'Close Case' }).click();
  const warning = page.getByRole('alertdialog', { name: messages.warningTitle });
  await expect(warning).toContainText(messages.noHospitalSelected);
  await expect(warning).toContainText('No hospital selected! Please select a hospital before closing the case.');
  await warning.getByRole('button', { name: 'OK' }).click();
  const picker = page.getByRole('dialog', { name: 'Select Hospital' });
  await expect(picker).toBeVisible();
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(picker).toBeHidden();

  await chooseComplaint(page, 'Stroke', 'Deficits');
  // A swap within the "stroke-side" group: Left, then Right takes its place.
  await tapTag(page, 'Deficits', 'Left', true);
  await tapTag(page, 'Deficits', 'Right', true);
  await expect(tagButton(page, 'Deficits', 'Left')).toHaveAttribute('aria-pressed', 'false');
  await tapTag(page, 'Deficits', 'Facial Droop', true);
  await snap(page, testInfo, '21-case-stroke-tags', { fullPage: false });

  // The data-enabled Last Known Well: ADD is enabled only once the datetime is edited (spec §5).
  await tagButton(page, 'Onset', 'Last Known Well').click();
  const lkw = page.getByRole('dialog', { name: 'Last Known Well' });
  await expect(lkw.getByRole('button', { name: 'ADD' })).toBeDisabled();
  await lkw.getByLabel('Last Known Well', { exact: true }).fill(LAST_KNOWN_WELL);
  await expect(lkw.getByRole('button', { name: 'ADD' })).toBeEnabled();
  await snap(page, testInfo, '22-case-data-tag', { fullPage: false });
  await lkw.getByRole('button', { name: 'ADD' }).click();
  await expect(lkw).toBeHidden();
  await expect(tagButton(page, 'Onset', 'Last Known Well')).toHaveAttribute('aria-pressed', 'true');

  await setAge(page, 67, 'Years');
  await tapGender(page, 'Female', true);

  // A few hospitals: one tap each on the case screen (issue 16); chooseHospital checks the pressed choice.
  await snap(page, testInfo, '23-case-hospital-choices', { fullPage: false });
  await chooseHospital(page, hospitals.riversideRegional);

  // Hospital chosen, patient info missing: Riverside Regional requires name and DOB.
  await page.getByRole('button', { name: 'Close Case' }).click();
  await expect(warning).toContainText(messages.patientInfoRequired(['First Name', 'Last Name', 'DOB']));
  await warning.getByRole('button', { name: 'OK' }).click();
  await expect(warning).toBeHidden();

  await page.getByRole('button', { name: 'Patient Info' }).click();
  const form = page.getByRole('dialog', { name: 'Patient Info' });
  await form.getByLabel('First Name', { exact: true }).fill('Ada');
  await form.getByLabel('Last Name', { exact: true }).fill('Lovelace');
  await form.getByLabel('DOB', { exact: true }).fill('1959-03-14');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('definition').filter({ hasText: '1959-03-14' })).toBeVisible();

  // Everything reached the server before the close (the network line says so).
  await expectNothingWaiting(page);
  await page.getByRole('button', { name: 'Close Case' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Close Case' });
  await expect(confirm).toContainText(messages.closeCaseConfirm);
  await snap(page, testInfo, '24-case-close-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(atPath('/start'));
  await expect(page.getByRole('button', { name: messages.startCase })).toBeVisible();

  // The server's case, read with medic1's own token.
  const caseId = caseIdByNumber(dataDir, caseNumber);
  expect(caseId, `case ${caseNumber} on the server`).not.toBeNull();
  const token = await apiToken(baseURL!, users.medic1.username);
  let server = await getCase(baseURL!, token, caseId!);
  await expect
    .poll(async () => (server = await getCase(baseURL!, token, caseId!)).arrivedAt, { timeout: 20_000 })
    .not.toBeNull();
  expect(server.caseNumber).toBe(caseNumber);
  expect(server.complaint).toBe('stroke');
  const tagIds = server.tags.map((tag) => tag.id);
  expect(tagIds).toContain(TAG.right);
  expect(tagIds).not.toContain(TAG.left);
  expect(tagIds).toContain(TAG.facialDroop);
  expect(tagIds).toContain(TAG.lastKnownWell);
  expect(tagIds).toHaveLength(3);
  const lkwValues = server.tags.find((tag) => tag.id === TAG.lastKnownWell)!.values;
  expect(lkwValues).toHaveLength(1);
  expect(lkwValues[0]!.fields).toHaveLength(1);
  expect(lkwValues[0]!.fields[0]).toMatchObject({ key: 'lastKnownWell', type: 'datetime' });
  // Sent in full time-zone form (spec §5); the same instant as typed.
  expect(lkwValues[0]!.fields[0]!.value).toMatch(/[+-]\d{2}:\d{2}$/);
  expect(new Date(lkwValues[0]!.fields[0]!.value).toISOString()).toBe(new Date(`${LAST_KNOWN_WELL}Z`).toISOString());
  expect(server.age).toBe(67);
  expect(server.agePeriod).toBe(3);
  expect(server.gender).toBe('F');
  expect(server.destinationHospital).toEqual({ id: RIVERSIDE_REGIONAL });
  expect(server.patientInfo).toEqual([
    { key: 'firstName', value: 'Ada' },
    { key: 'lastName', value: 'Lovelace' },
    { key: 'dateOfBirth', value: '1959-03-14' },
  ]);
  expect(server.arrivedAt).not.toBeNull();

  // And the event log holds each tap once, in the order made.
  expect(crewChanges(caseEvents(dataDir, caseId!))).toEqual([
    'caseStarted',
    'complaint stroke',
    `tag added ${TAG.left}`,
    `tag removed ${TAG.left}`,
    `tag added ${TAG.right}`,
    `tag added ${TAG.facialDroop}`,
    `tag added ${TAG.lastKnownWell}`,
    `values ${TAG.lastKnownWell} ${JSON.stringify([['lastKnownWell', lkwValues[0]!.fields[0]!.value]])}`,
    'age 67 3',
    'gender F',
    `hospital ${RIVERSIDE_REGIONAL}`,
    `patientInfo ${JSON.stringify([
      ['firstName', 'Ada'],
      ['lastName', 'Lovelace'],
      ['dateOfBirth', '1959-03-14'],
    ])}`,
    'arrived',
    // Recorded by the server from the close: the truck is at its destination (issue 15).
    'arrivedAtDestination',
  ]);
});
