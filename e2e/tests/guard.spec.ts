import { expect, test } from '@playwright/test';
import { caseNumberFromHeading, startCase } from '../support/cases';
import { atPath, chooseTeam, chooseTruck, signIn, signInToStart, waitUntilStored } from '../support/crew';
import { teams, users } from '../support/demo';

// The navigation guard of spec §2, one redirect at a time, each by loading the address afresh (so the
// stored session is what decides, as after a reload or a bookmark).
const signedInOnly = [
  '/start',
  '/team-selection',
  '/truck-selection',
  '/settings',
  '/shift',
  '/case',
  '/security',
  '/changePassword',
  '/caseFeedbackSettings',
];

test.describe('navigation guard', () => {
  test('with no token, every screen but / and /protocol goes to /', async ({ page }) => {
    for (const target of signedInOnly) {
      await page.goto(target);
      await expect(page, `${target} without a token`).toHaveURL(atPath('/'));
    }
    await page.goto('/protocol');
    await expect(page).toHaveURL(atPath('/protocol'));
    await page.goto('/');
    await expect(page).toHaveURL(atPath('/'));
  });

  test('with a token: no team → team selection; no truck → truck selection; no case → start', async ({ page }) => {
    await signIn(page, users.medic1.username);
    await expect(page).toHaveURL(atPath('/team-selection'));
    await waitUntilStored(page, '/team-selection');

    for (const target of ['/', '/start', '/truck-selection', '/settings', '/case', '/shift']) {
      await page.goto(target);
      await expect(page, `${target} with a token but no team`).toHaveURL(atPath('/team-selection'));
    }

    await chooseTeam(page, teams.riverside);
    await waitUntilStored(page, '/truck-selection');
    for (const target of ['/', '/start', '/settings', '/case', '/changePassword']) {
      await page.goto(target);
      await expect(page, `${target} with a team but no truck`).toHaveURL(atPath('/truck-selection'));
    }
    await page.goto('/team-selection');
    await expect(page, 'team selection stays allowed without a truck').toHaveURL(atPath('/team-selection'));
    await page.goto('/truck-selection');

    await chooseTruck(page, 'Medic 2');
    await waitUntilStored(page, '/start');
    await page.goto('/case');
    await expect(page, '/case with no active case').toHaveURL(atPath('/start'));
    await page.goto('/');
    await expect(page, '/ with a token').toHaveURL(atPath('/start'));
    for (const target of ['/settings', '/shift', '/security', '/changePassword', '/team-selection', '/protocol']) {
      await page.goto(target);
      await expect(page, `${target} when fully set up`).toHaveURL(atPath(target));
    }
  });

  test('with an active case, every other screen goes to /case', async ({ page }) => {
    await signInToStart(page, users.medic2.username, teams.riverside, 'Medic 1');
    await startCase(page);
    await caseNumberFromHeading(page); // the case is stored and known to the server
    await waitUntilStored(page, '/case');
    for (const target of ['/', '/start', '/team-selection', '/truck-selection', '/settings', '/shift', '/protocol']) {
      await page.goto(target);
      await expect(page, `${target} with an active case`).toHaveURL(atPath('/case'));
    }
    await expect(page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ })).toBeVisible();
  });
});
