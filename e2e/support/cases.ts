/**
 * What the case tests need beyond the crew screens: the server's view of a case (through the API, with a
 * crew member's own token) and its event log (the SQLite file of a server, opened read-only), and the
 * case screen's steps, driven by role and accessible name (apps/crew/README.md, "Accessible names").
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import path from 'node:path';
import { authorizationHeader, isApiPath, messages } from '@inbound/contract';
import { demoPassword } from './demo';

/** The case as `GET /v4/twiageCases/{id}` answers it (the fields the tests compare). */
export interface ServerCase {
  id: string;
  caseNumber: string;
  complaint: string | null;
  tags: { id: string; values: { fields: { key: string; value: string; name: string; type: string }[] }[] }[];
  age: number | null;
  agePeriod: number;
  gender: 'M' | 'F' | null;
  destinationHospital: { id: string } | null;
  patientInfo: { key: string; value: string }[];
  arrivedAt: string | null;
  closedAt: string | null;
}

/** Signs in through the API (as the crew app does) and returns the token. */
export async function apiToken(baseURL: string, username: string): Promise<string> {
  const response = await fetch(`${baseURL}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: demoPassword(username), twiageClient: 'ems', platform: 'web' }),
  });
  expect(response.status, 'API sign-in').toBe(200);
  const body = (await response.json()) as { authorizationToken: { token: string } };
  return body.authorizationToken.token;
}

export async function getCase(baseURL: string, token: string, id: string): Promise<ServerCase> {
  const response = await fetch(`${baseURL}/v4/twiageCases/${id}?uniquevalue=${Date.now()}&rawDataEnabledTags=true`, {
    headers: { Authorization: authorizationHeader(token) },
  });
  expect(response.status, `GET case ${id}`).toBe(200);
  return (await response.json()) as ServerCase;
}

export interface CaseEventRow {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
}

function openDatabase(dataDir: string): Database.Database {
  return new Database(path.join(dataDir, 'inbound.db'), { readonly: true, fileMustExist: true });
}

/** The server's case id for a case number (the crew app shows the number, not the id). */
export function caseIdByNumber(dataDir: string, caseNumber: string): string | null {
  const db = openDatabase(dataDir);
  try {
    const row = db.prepare('SELECT id FROM cases WHERE case_number = ?').get(caseNumber) as { id: string } | undefined;
    return row?.id ?? null;
  } finally {
    db.close();
  }
}

/** The case's event log in commit order, read from the server's SQLite file (read-only). */
export function caseEvents(dataDir: string, caseId: string): CaseEventRow[] {
  const db = openDatabase(dataDir);
  try {
    const rows = db
      .prepare('SELECT seq, type, payload FROM case_events WHERE case_id = ? ORDER BY seq')
      .all(caseId) as { seq: number; type: string; payload: string }[];
    return rows.map((row) => ({
      seq: row.seq,
      type: row.type,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
    }));
  } finally {
    db.close();
  }
}

/**
 * The events a crew's taps made, in a comparable form: `type` plus the part of the payload the tap
 * decided (location reports, made by a timer, and server-side extras like `previous` are left out).
 */
export function crewChanges(events: readonly CaseEventRow[]): string[] {
  return events
    .filter((event) => event.type !== 'location')
    .map(({ type, payload }) => {
      switch (type) {
        case 'caseStarted':
          return 'caseStarted';
        case 'complaint':
          return `complaint ${String(payload.complaint)}`;
        case 'tag':
          return `tag ${String(payload.action)} ${String(payload.tagId)}`;
        case 'dataEnabledTag':
          return `values ${String(payload.tagId)} ${JSON.stringify((payload.fields as { key: string; value: string }[]).map((f) => [f.key, f.value]))}`;
        case 'age':
          return `age ${String(payload.age)} ${String(payload.agePeriod)}`;
        case 'gender':
          return `gender ${String(payload.gender)}`;
        case 'hospital':
          return `hospital ${String(payload.destinationHospital)}`;
        case 'patientInfo':
          return `patientInfo ${JSON.stringify((payload.fields as { key: string; value: string }[]).map((f) => [f.key, f.value]))}`;
        case 'arrived':
          return 'arrived';
        default:
          return type;
      }
    });
}

// ---- the case screen ----------------------------------------------------------------------------

/** Start → START CASE → the case screen (its number may still be `...` when offline). */
export async function startCase(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'START CASE' }).click();
  await expect(page.getByRole('heading', { name: /^Case / })).toBeVisible();
}

/** The case number once the server has answered (the heading reads `Case KMT-472`, not `Case ...`). */
export async function caseNumberFromHeading(page: Page, timeout = 15_000): Promise<string> {
  const heading = page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ });
  await expect(heading).toBeVisible({ timeout });
  return (await heading.innerText()).replace(/^Case /, '').trim();
}

/** Taps a complaint in the list and waits for one of its sections. */
export async function chooseComplaint(page: Page, name: string, section: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name} Priority \\d$`) }).click();
  await expect(page.getByRole('region', { name: section })).toBeVisible();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A tag's button in a section. Data-enabled tags read `{name} …` (a CSS ::after says "opens a dialog"), or
 * `{name} {value}` once a value is saved ("Last Known Well 13:05, 42 min ago", "Blood Glucose 110 mg/dL").
 */
export function tagButton(page: Page, section: string, tag: string) {
  return page
    .getByRole('region', { name: section })
    .getByRole('button', { name: new RegExp(`^${escapeRegExp(tag)}( …| \\d.*| unknown)?$`) });
}

/** Taps a plain tag in a section and waits for its pressed state. */
export async function tapTag(page: Page, section: string, tag: string, pressed: boolean): Promise<void> {
  const button = tagButton(page, section, tag);
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', String(pressed));
}

/** The age field of the case screen, as it reads for `unit` (issue 16: the age is typed in place). */
export function ageField(page: Page, unit: 'Years' | 'Months' | 'Weeks') {
  return page
    .getByRole('group', { name: 'Age and gender' })
    .getByRole('textbox', { name: `Age in ${unit.toLowerCase()}` });
}

/** Types the age in place when the unit is already right; otherwise through the unit button's dialog. */
export async function setAge(page: Page, age: number, unit: 'Years' | 'Months' | 'Weeks'): Promise<void> {
  const group = page.getByRole('group', { name: 'Age and gender' });
  const unitButton = group.getByRole('button', { name: /^Age unit / });
  if ((await unitButton.innerText()).trim() === unit) {
    const field = ageField(page, unit);
    await field.click();
    await field.fill(String(age));
    await field.press('Enter');
  } else {
    await unitButton.click();
    const dialog = page.getByRole('dialog', { name: 'Age' });
    await dialog.getByRole('button', { name: unit, exact: true }).click();
    await dialog.getByLabel(`Age in ${unit.toLowerCase()}`).fill(String(age));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(ageField(page, unit)).toHaveValue(String(age));
  await expect(ageField(page, unit)).not.toBeFocused();
}

export async function tapGender(page: Page, gender: 'Male' | 'Female', pressed: boolean): Promise<void> {
  const button = page.getByRole('button', { name: gender, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', String(pressed));
}

/** A data-enabled tag's dialog: fills its fields (label → value) and presses ADD. */
export async function addTagValues(page: Page, section: string, tag: string, values: Record<string, string>) {
  await tagButton(page, section, tag).click();
  const dialog = page.getByRole('dialog', { name: tag });
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
  await dialog.getByRole('button', { name: 'ADD' }).click();
  await expect(dialog).toBeHidden();
}

/** Resolves once the network line says nothing is waiting to be sent. */
export async function expectNothingWaiting(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: /waiting to send/ })).toHaveCount(0, { timeout });
}

/** Resolves once the network line counts exactly `count` changes waiting to be sent. */
export async function expectWaiting(page: Page, count: number, timeout = 10_000): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: messages.changesWaiting(count) })).toBeVisible({ timeout });
}

/** The chosen destination as the case screen shows it: the pressed one-tap choice, or the hospital bar. */
export function destinationShown(page: Page, name: string) {
  return page
    .getByRole('group', { name: 'Destination hospital' })
    .getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`), pressed: true })
    .or(page.getByRole('button', { name: `Hospital ${name}` }));
}

/** A team with a few hospitals has one-tap choices on the case screen (issue 16); more use the picker. */
export async function chooseHospital(page: Page, name: string): Promise<void> {
  const choices = page.getByRole('group', { name: 'Destination hospital' });
  if (await choices.isVisible()) {
    await choices.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`) }).click();
  } else {
    await page.getByRole('button', { name: /^(Select Hospital|Hospital .*)$/ }).click();
    const picker = page.getByRole('dialog', { name: 'Select Hospital' });
    await picker.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`) }).click();
    await expect(picker).toBeHidden();
  }
  await expect(destinationShown(page, name)).toBeVisible();
}

export async function fillPatientInfo(page: Page, values: Record<string, string>): Promise<void> {
  await page.getByRole('button', { name: 'Patient Info' }).click();
  const form = page.getByRole('dialog', { name: 'Patient Info' });
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
}

// ---- cutting the link to the API only --------------------------------------------------------------

const isApiUrl = (url: URL) => isApiPath(url.pathname);

/**
 * Fails every API request as a lost link would (`internetdisconnected`) while the app's own files still
 * load. Needed to reload "offline": with no service worker serving the app shell, a page reloaded under
 * `setOffline(true)` cannot load at all, so the reloads happen with only the API cut.
 */
export async function cutApi(target: BrowserContext): Promise<void> {
  await target.route(isApiUrl, (route) => route.abort('internetdisconnected'));
}

export async function restoreApi(target: BrowserContext): Promise<void> {
  await target.unroute(isApiUrl);
}

// ---- a scripted run of changes, with the events each must make on the server -----------------------

export const STROKE_TAG = {
  left: 'stroke.deficits.left',
  right: 'stroke.deficits.right',
  facialDroop: 'stroke.deficits.facial-droop',
  armDrift: 'stroke.deficits.arm-drift',
  lastKnownWell: 'stroke.onset.last-known-well',
  wakeUp: 'stroke.onset.wake-up-stroke',
  lams: 'stroke.stroke-scale.lams',
  bloodGlucose: 'stroke.vitals-labs.blood-glucose',
  anticoagulants: 'stroke.vitals-labs.on-anticoagulants',
} as const;
export const RIVERSIDE_REGIONAL_ID = 'hospital-riverside-regional';

export interface ScriptedChange {
  name: string;
  run: (page: Page) => Promise<void>;
  /** The events (in `crewChanges` form) the change must add on the server, in order. */
  events: string[];
}

const values = (tagId: string, fields: [string, string][]) => `values ${tagId} ${JSON.stringify(fields)}`;

/** 23 taps on a Stroke case (30 events): complaint, swaps, toggles, ages, genders, tag values, hospital, patient info. */
export function strokeScript(): ScriptedChange[] {
  const T = STROKE_TAG;
  return [
    { name: 'complaint Stroke', run: (p) => chooseComplaint(p, 'Stroke', 'Deficits'), events: ['complaint stroke'] },
    { name: 'Left', run: (p) => tapTag(p, 'Deficits', 'Left', true), events: [`tag added ${T.left}`] },
    {
      name: 'Right (swap)',
      run: (p) => tapTag(p, 'Deficits', 'Right', true),
      events: [`tag removed ${T.left}`, `tag added ${T.right}`],
    },
    {
      name: 'Facial Droop',
      run: (p) => tapTag(p, 'Deficits', 'Facial Droop', true),
      events: [`tag added ${T.facialDroop}`],
    },
    { name: 'Arm Drift', run: (p) => tapTag(p, 'Deficits', 'Arm Drift', true), events: [`tag added ${T.armDrift}`] },
    {
      name: 'Arm Drift off',
      run: (p) => tapTag(p, 'Deficits', 'Arm Drift', false),
      events: [`tag removed ${T.armDrift}`],
    },
    { name: 'age 67 y', run: (p) => setAge(p, 67, 'Years'), events: ['age 67 3'] },
    { name: 'age 5 m', run: (p) => setAge(p, 5, 'Months'), events: ['age 5 2'] },
    { name: 'age 67 y again', run: (p) => setAge(p, 67, 'Years'), events: ['age 67 3'] },
    { name: 'Male', run: (p) => tapGender(p, 'Male', true), events: ['gender M'] },
    { name: 'Female', run: (p) => tapGender(p, 'Female', true), events: ['gender F'] },
    { name: 'Female off', run: (p) => tapGender(p, 'Female', false), events: ['gender null'] },
    { name: 'Female again', run: (p) => tapGender(p, 'Female', true), events: ['gender F'] },
    {
      name: 'Last Known Well',
      run: (p) => addTagValues(p, 'Onset', 'Last Known Well', { 'Last Known Well': '2026-11-21T23:30' }),
      events: [
        `tag added ${T.lastKnownWell}`,
        values(T.lastKnownWell, [['lastKnownWell', '2026-11-21T23:30:00.000+00:00']]),
      ],
    },
    {
      name: 'Blood Glucose 112',
      run: (p) => addTagValues(p, 'Vitals & Labs', 'Blood Glucose', { 'Blood Glucose (mg/dL)': '112' }),
      events: [`tag added ${T.bloodGlucose}`, values(T.bloodGlucose, [['bloodGlucose', '112']])],
    },
    {
      name: 'Blood Glucose 98',
      run: (p) => addTagValues(p, 'Vitals & Labs', 'Blood Glucose', { 'Blood Glucose (mg/dL)': '98' }),
      events: [values(T.bloodGlucose, [['bloodGlucose', '98']])],
    },
    {
      name: 'Left (swap back)',
      run: (p) => tapTag(p, 'Deficits', 'Left', true),
      events: [`tag removed ${T.right}`, `tag added ${T.left}`],
    },
    {
      name: 'Wake-up Stroke',
      run: (p) => tapTag(p, 'Onset', 'Wake-up Stroke', true),
      events: [`tag added ${T.wakeUp}`],
    },
    {
      name: 'Wake-up Stroke off',
      run: (p) => tapTag(p, 'Onset', 'Wake-up Stroke', false),
      events: [`tag removed ${T.wakeUp}`],
    },
    {
      name: 'On Anticoagulants',
      run: (p) => tapTag(p, 'Vitals & Labs', 'On Anticoagulants', true),
      events: [`tag added ${T.anticoagulants}`],
    },
    {
      name: 'LAMS 4',
      run: (p) => addTagValues(p, 'Stroke Scale', 'LAMS', { 'LAMS Score (0-5)': '4' }),
      events: [`tag added ${T.lams}`, values(T.lams, [['lamsScore', '4']])],
    },
    {
      name: 'hospital',
      run: (p) => chooseHospital(p, 'Riverside Regional Medical Center'),
      events: [`hospital ${RIVERSIDE_REGIONAL_ID}`],
    },
    {
      name: 'patient info',
      run: (p) => fillPatientInfo(p, { 'First Name': 'Ada', 'Last Name': 'Lovelace', DOB: '1959-03-14' }),
      events: [
        `patientInfo ${JSON.stringify([
          ['firstName', 'Ada'],
          ['lastName', 'Lovelace'],
          ['dateOfBirth', '1959-03-14'],
        ])}`,
      ],
    },
  ];
}

/** What the screen must show after the whole script (checked after each offline reload). */
export async function expectScriptShown(page: Page): Promise<void> {
  await expect(ageField(page, 'Years')).toHaveValue('67');
  await expect(page.getByRole('button', { name: 'Female', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Male', exact: true })).toHaveAttribute('aria-pressed', 'false');
  for (const [section, tag, pressed] of [
    ['Deficits', 'Left', true],
    ['Deficits', 'Right', false],
    ['Deficits', 'Facial Droop', true],
    ['Deficits', 'Arm Drift', false],
    ['Onset', 'Last Known Well', true],
    ['Onset', 'Wake-up Stroke', false],
    ['Vitals & Labs', 'Blood Glucose', true],
    ['Vitals & Labs', 'On Anticoagulants', true],
    ['Stroke Scale', 'LAMS', true],
  ] as const) {
    await expect(tagButton(page, section, tag), `${tag} after the reload`).toHaveAttribute(
      'aria-pressed',
      String(pressed),
    );
  }
  await expect(destinationShown(page, 'Riverside Regional Medical Center')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Ada Lovelace' })).toBeVisible();
}

/** Polls (bounded) until the server's log for the case holds `count` crew events, then returns them. */
export async function waitForEvents(
  dataDir: string,
  caseId: string,
  count: number,
  timeout = 20_000,
): Promise<string[]> {
  let changes: string[] = [];
  await expect
    .poll(() => (changes = crewChanges(caseEvents(dataDir, caseId))).length, {
      timeout,
      message: 'events on the server',
    })
    .toBeGreaterThanOrEqual(count);
  return changes;
}
