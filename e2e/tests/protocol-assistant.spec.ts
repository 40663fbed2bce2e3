import { expect, test } from '@playwright/test';
import { chooseComplaint, startCase, tapTag } from '../support/cases';
import { atPath, signInToStart, snap } from '../support/crew';
import { teams, users } from '../support/demo';

// Issue 13, Browser: the AI protocol assistant answers from the agency's own (demo) library, quoting the
// page it cites, which opens from Inbound; inside a case it asks about the case and the exchange lands
// in the case chat.
test('a crew asks the protocol assistant and opens the cited page', async ({ page }, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await page.getByRole('link', { name: 'Protocols Ask Question' }).click();
  const level = page.getByRole('dialog', { name: 'EMS Level' });
  await level.getByRole('radio', { name: 'Paramedic', exact: true }).check();
  await level.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(atPath('/protocol'));

  await page.getByRole('textbox', { name: 'Question' }).fill('ASA dose for chest pain?');
  await page.getByRole('button', { name: 'Ask Question' }).click();
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation).toContainText('Aspirin 324 mg chewable PO');
  const reference = conversation.getByRole('link', { name: /Chest Pain .*\(DEMO-110\), Section 3: Treatment/ });
  await expect(reference).toBeVisible();
  await snap(page, testInfo, '60-protocol-answer', { fullPage: false });

  await conversation.getByRole('button', { name: 'Show details' }).click();
  await expect(conversation.getByRole('button', { name: 'Hide details' })).toBeVisible();
  await expect(conversation).toContainText('[1] Chest Pain');
  const href = await reference.getAttribute('href');
  const document = await page.request.get(href!.split('#')[0]!);
  expect(document.status()).toBe(200);
  expect(await document.text()).toContain('Aspirin 324 mg chewable PO');

  await conversation.getByRole('button', { name: 'Thumbs down' }).click();
  await conversation.getByRole('textbox', { name: 'What was wrong with this answer?' }).fill('Add the pediatric note');
  await conversation.getByRole('button', { name: 'Send feedback' }).click();
  await expect(conversation).toContainText('Thank you for your feedback.');
  await snap(page, testInfo, '61-protocol-details-feedback', { fullPage: false });
});

test.describe('in a case, on a 7" tablet', () => {
  test.use({ viewport: { width: 600, height: 960 } });

  test('the case button asks about the case and posts Q:/A: to the case chat @tablet', async ({ page }, testInfo) => {
    await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
    await startCase(page);
    await chooseComplaint(page, 'Stroke', 'Deficits');
    await tapTag(page, 'Deficits', 'Facial Droop', true);
    await page.getByRole('button', { name: 'AI Protocol Assistant' }).click();
    const level = page.getByRole('dialog', { name: 'EMS Level' });
    await level.getByRole('radio', { name: 'EMT', exact: true }).check();
    await level.getByRole('button', { name: 'Save & Continue' }).click();

    const assistant = page.getByRole('dialog', { name: 'AI Protocol Assistant' });
    await expect(assistant).toContainText('Stroke');
    await assistant.getByRole('button', { name: 'Ask Question' }).click(); // empty: about the case
    await expect(assistant.getByRole('log')).toContainText('(DEMO-120)');
    await expect(assistant.getByRole('button', { name: 'Show details' })).toBeVisible(); // fully revealed
    await snap(page, testInfo, '62-protocol-case', { fullPage: false });
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: /^CHAT/ }).click();
    await expect(page.getByText('Q: About this case')).toBeVisible();
    await expect(page.getByText(/^A: .*\(DEMO-120\)/)).toBeVisible();
  });
});
