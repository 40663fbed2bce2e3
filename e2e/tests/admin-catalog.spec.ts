/**
 * Issue 5 item 8, the catalogue in the console: the organisation admin edits a hospital's ED phone
 * numbers (a crew of an agency delivering there reads the new number at once, through the crew app's own
 * call), imports a complaint-set file with a duplicate tag id (refused, the message naming the entry),
 * then a good file (a new set), and exports it again as a JSON download identical in content.
 * Screenshots: e2e/.artifacts/screens/{project}-admin-*.png.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { authorizationHeader } from '@inbound/contract';
import { apiToken } from '../support/cases';
import { signInToConsole } from '../support/console';
import { snap } from '../support/crew';
import { users } from '../support/demo';

const LAKESIDE_HOSPITAL = 'Lakeside Medical Center';
const LAKESIDE_AGENCY = 'agency-lakeside-fire-rescue';

interface SetFile {
  name: string;
  version?: number;
  complaints: { sections: { tags: { id: string }[] }[] }[];
}

async function downloadJson(page: Page, click: () => Promise<void>): Promise<{ fileName: string; body: SetFile }> {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  const body = JSON.parse(await readFile((await file.path())!, 'utf8')) as SetFile;
  return { fileName: file.suggestedFilename(), body };
}

test('admin edits an ED phone, refuses a bad complaint-set file, imports and exports a good one', async ({
  browser,
  baseURL,
}, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await signInToConsole(page, users.admin.username);
  // Signed in (an admin who staffs no ED lands on Administration) before the address changes: a
  // navigation while sign-in is still answering would drop it.
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible({ timeout: 15_000 });
  await page.goto('/hospital/admin/hospitals');
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();

  // ---- a hospital's ED phone -------------------------------------------------------------------------
  const table = page.getByRole('table', { name: 'Hospitals' });
  await table.getByRole('button', { name: `Edit ${LAKESIDE_HOSPITAL}` }).click();
  const form = page.getByRole('form', { name: `Edit ${LAKESIDE_HOSPITAL}` });
  await form.getByRole('button', { name: 'Add phone number' }).click();
  await form.getByLabel('Phone 3 name').fill('Trauma Bay');
  const number = form.getByLabel('Phone 3 number');
  await number.fill('call the desk');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('phoneNumber must be a phone number such as +1-555-0100 (7 to 15 digits)')).toBeVisible();
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await snap(page, testInfo, 'admin-hospital-invalid-phone');

  const phone = `+1-555-01${String(Math.floor(Math.random() * 90) + 10)}`;
  await number.fill(phone);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved ${LAKESIDE_HOSPITAL}` })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(LAKESIDE_HOSPITAL) })).toContainText(`Trauma Bay: ${phone}`);
  await snap(page, testInfo, 'admin-hospitals');

  // A Lakeside crew reads the team as the crew app does, and the new number is there.
  const medic3 = await apiToken(baseURL!, users.medic3.username);
  const team = (await (
    await fetch(`${baseURL}/v4/emsAgencies/${LAKESIDE_AGENCY}?fields=dynamicForms`, {
      headers: { Authorization: authorizationHeader(medic3) },
    })
  ).json()) as { hospitals: { name: string; edPhoneNumbers: { name: string; phoneNumber: string }[] }[] };
  expect(team.hospitals.find((h) => h.name === LAKESIDE_HOSPITAL)?.edPhoneNumbers).toContainEqual({
    name: 'Trauma Bay',
    phoneNumber: phone,
  });

  // ---- complaint sets: a bad file, a good one, its export -----------------------------------------------
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Complaint sets' }).click();
  const sets = page.getByRole('table', { name: 'Complaint sets' });
  const base = await downloadJson(page, () => sets.getByRole('button', { name: 'Export Hilltop BLS 2026' }).click());
  expect(base.fileName).toBe('hilltop-bls-2026-v1.json');
  expect(base.body.complaints.length).toBeGreaterThan(3);

  const name = `E2E Protocols ${randomUUID().slice(0, 8)}`;
  const bad = structuredClone(base.body);
  bad.name = name;
  const dupId = bad.complaints[0]!.sections[0]!.tags[0]!.id;
  bad.complaints[3]!.sections[1]!.tags[0]!.id = dupId;
  const input = page.getByLabel('Complaint set file (.json)');
  await input.setInputFiles({
    name: 'bad-set.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bad)),
  });
  const refusal = page.getByRole('alert').filter({ hasText: 'The file cannot be imported' });
  await expect(refusal).toContainText(`complaints[3].sections[1].tags[0].id: duplicate id "${dupId}"`);
  await snap(page, testInfo, 'admin-complaint-set-error');

  const good = { ...structuredClone(base.body), name };
  delete good.version;
  await input.setInputFiles({
    name: 'good-set.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(good)),
  });
  await expect(refusal).toBeHidden();
  const confirm = page.getByRole('group', { name: 'Confirm the import' });
  await expect(confirm).toContainText('This is a new set');
  await confirm.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Imported ${name} version 1` })).toBeVisible();
  const row = sets.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('No agency');
  await snap(page, testInfo, 'admin-complaint-sets');

  const exported = await downloadJson(page, () => row.getByRole('button', { name: `Export ${name}` }).click());
  expect(exported.fileName).toBe(`${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-v1.json`);
  expect(exported.body).toEqual({ ...good, version: 1 });

  // The agencies page lists the teams; opening one shows its settings and trucks.
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Agencies' }).click();
  await page.getByRole('button', { name: 'Edit Lakeside Fire Rescue' }).click();
  await expect(page.getByRole('form', { name: 'Edit Lakeside Fire Rescue' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Agency Lakeside Fire Rescue' }).getByRole('heading', { name: 'Trucks' }),
  ).toBeVisible();
  await snap(page, testInfo, 'admin-agency');
  await context.close();
});
