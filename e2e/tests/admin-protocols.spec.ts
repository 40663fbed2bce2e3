/**
 * Issue 13, the protocol library in the console: the organisation admin uploads a PDF for an agency,
 * watches it being read, and finds it among the agency's documents; a PDF without readable content
 * fails with its reason on the page. Screenshot: e2e/.artifacts/screens/{project}-admin-protocol-library.png.
 */
import { expect, test } from '@playwright/test';
import { tinyPdf } from '../../apps/server/src/modules/protocols/testing/tiny-pdf';
import { signInToConsole } from '../support/console';
import { snap } from '../support/crew';
import { users } from '../support/demo';

const HEAT_STROKE = [
  ['TREATMENT PROTOCOL H-71', 'HEAT STROKE', 'Date: 7/1/2025 Page 1 of 2', 'Cool the patient with ice packs.'],
  ['HEAT STROKE', 'Protocol: H-71 Page 2 of 2', 'Give normal saline 1 L IV for hypotension.'],
];

test('admin uploads a protocol PDF, sees it read and listed, and a broken one fail with its reason', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await signInToConsole(page, users.admin.username);
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('link', { name: 'Protocol library' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Protocol library' })).toBeVisible();
  await page.getByLabel('Agency').selectOption({ label: 'Hilltop Volunteer Ambulance' });
  // The demo library is listed for every demo agency.
  await expect(page.getByRole('table', { name: 'Protocol documents' })).toBeVisible();

  const file = page.getByLabel('Protocol file (.pdf, .md, .html)');
  await file.setInputFiles({
    name: 'H-71 Heat Stroke.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(tinyPdf(HEAT_STROKE)),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Added HEAT STROKE (2 pages).')).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByRole('table', { name: 'Protocol documents' }).getByRole('cell', { name: 'HEAT STROKE', exact: true }),
  ).toBeVisible();

  await file.setInputFiles({
    name: 'broken.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\nnot really a PDF\n%%EOF\n'),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText(/^Failed: The file could not be read: /)).toBeVisible({ timeout: 60_000 });

  await snap(page, testInfo, 'admin-protocol-library');
  await context.close();
});
