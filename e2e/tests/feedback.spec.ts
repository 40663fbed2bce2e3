import { expect, test, type Page } from '@playwright/test';
import { CLIENT_NAME, CLIENT_VERSION, routes, serverMessages, type FeedbackBody } from '@inbound/contract';
import { atPath, chooseTeam, signIn, snap } from '../support/crew';
import { teams, users } from '../support/demo';

async function sendFeedback(page: Page, text: string): Promise<FeedbackBody> {
  await page.getByRole('button', { name: 'Feedback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Feedback' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your feedback').fill(text);
  const request = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === routes.feedback.path,
  );
  await dialog.getByRole('button', { name: 'Send' }).click();
  const body = (await request).postDataJSON() as FeedbackBody;
  await expect(dialog.getByRole('status')).toHaveText(serverMessages.feedbackReceived);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  return body;
}

test.describe('feedback link', () => {
  test('posts feedback from team selection and from start, with the client name and version', async ({
    page,
  }, testInfo) => {
    await signIn(page, users.medic3.username);
    await expect(page).toHaveURL(atPath('/team-selection'));

    const first = await sendFeedback(page, 'The truck list took a while to load on the highway.');
    expect(first).toEqual({
      message: 'The truck list took a while to load on the highway.',
      clientInfo: { client: CLIENT_NAME, clientVersion: CLIENT_VERSION },
    });

    await chooseTeam(page, teams.lakeside);
    await page.getByRole('radio', { name: 'Ambulance 12', exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(atPath('/start'));

    await page.getByRole('button', { name: 'Feedback' }).click();
    await expect(page.getByRole('dialog', { name: 'Feedback' })).toBeVisible();
    await snap(page, testInfo, '09-feedback');
    await page.getByRole('dialog', { name: 'Feedback' }).getByRole('button', { name: 'Cancel' }).click();

    const second = await sendFeedback(page, 'Start screen is clear.');
    expect(second.clientInfo.client).toBe('ems-web');
  });
});
