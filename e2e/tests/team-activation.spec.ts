/**
 * Issue 15 item 1 in the browser: a crew's priority-1 stroke case lands on Riverside's board, which
 * proposes the Stroke team; ed1 activates it with one tap; the two members, each in a console of their
 * own, get the alert and answer "On my way"; the crew's case screen shows both names; the ED's case
 * detail shows both on the way. (Re-alert and escalation with a moved clock: the API test
 * apps/server/src/modules/activation/activation.routes.test.ts.) Screenshots in e2e/.artifacts/screens/.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { authorizationHeader, buildPath, routes } from '@inbound/contract';
import { apiToken, caseNumberFromHeading, chooseComplaint, chooseHospital, startCase } from '../support/cases';
import { consolePage, signInToConsole } from '../support/console';
import { signInToStart, snap } from '../support/crew';
import { demoPassword, hospitals, teams, users } from '../support/demo';
import { SEED } from '../support/realtime';

const MEMBERS = [
  { username: 'strokeneuro', displayName: 'Dr. Amara Okafor' },
  { username: 'strokerad', displayName: 'Dr. Lee Chen' },
] as const;

/** Adds the two team members as Riverside ED staff, straight into the server's database (password as ed1's). */
function addMembers(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'inbound.db'), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    const ed1 = db.prepare('SELECT password_hash FROM users WHERE username = ?').get('ed1') as {
      password_hash: string;
    };
    const now = new Date().toISOString();
    for (const m of MEMBERS) {
      db.prepare(
        `INSERT OR IGNORE INTO users (id, username, username_key, email, email_key, display_name, password_hash,
           disabled, features, roles, created_at, updated_at)
         VALUES (?, ?, ?, NULL, NULL, ?, ?, 0, '[]', '["edStaff"]', ?, ?)`,
      ).run(`user-${m.username}`, m.username, m.username, m.displayName, ed1.password_hash, now, now);
      db.prepare('INSERT OR IGNORE INTO hospital_staff (hospital_id, user_id) VALUES (?, ?)').run(
        SEED.riversideRegional,
        `user-${m.username}`,
      );
    }
  } finally {
    db.close();
  }
}

async function adminCall(baseURL: string, method: string, url: string, body?: unknown) {
  const token = await apiToken(baseURL, users.admin.username);
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      Authorization: authorizationHeader(token),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.status === 204 ? null : ((await response.json()) as { _id: string });
}

async function memberConsole(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await signInToConsole(page, username, demoPassword('ed1'));
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText(/Live/);
  return page;
}

test('a priority-1 stroke case proposes the Stroke team; ed1 activates it; both members answer; the crew sees both names', async ({
  browser,
  page: crew,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  addMembers(process.env.E2E_DATA_DIR ?? '');
  const team = await adminCall(base, 'POST', buildPath(routes.createTeam.path, { id: SEED.riversideRegional }), {
    kind: 'stroke',
    name: 'Stroke',
    members: MEMBERS.map((m) => ({ userId: `user-${m.username}`, backup: false })),
  });
  const pages: Page[] = [];
  try {
    const ed = await consolePage(browser);
    pages.push(ed);
    const members = [
      await memberConsole(browser, MEMBERS[0].username),
      await memberConsole(browser, MEMBERS[1].username),
    ];
    pages.push(...members);

    await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
    await startCase(crew);
    const caseNumber = await caseNumberFromHeading(crew);
    await chooseComplaint(crew, 'Stroke', 'Onset');
    // Destination advice: the comprehensive stroke centre is the advised choice (starred on a phone).
    await expect(
      crew.getByRole('group', { name: 'Destination hospital' }).getByRole('button', {
        name: new RegExp(`^${hospitals.riversideRegional} \\(advised\\)`),
      }),
    ).toBeVisible();
    await snap(crew, testInfo, 'destination-advice-phone', { fullPage: false });
    await chooseHospital(crew, hospitals.riversideRegional);

    // The board proposes the Stroke team for this case as soon as it lands.
    const proposal = ed.getByRole('region', { name: 'Proposed team activations' }).getByRole('status').filter({
      hasText: caseNumber,
    });
    await expect(proposal).toContainText('activate the Stroke team?');
    await snap(ed, testInfo, 'team-activation-proposal', { fullPage: false });
    await proposal.getByRole('button', { name: 'Activate Stroke team' }).click();
    await expect(proposal).toBeHidden();

    // Each member's console shows the alert on whatever screen it is; each answers.
    for (const [i, member] of members.entries()) {
      const alert = member.getByTestId('team-alert').filter({ hasText: `Case ${caseNumber}` });
      await expect(alert).toContainText('Stroke team activated');
      if (i === 0) await snap(member, testInfo, 'team-activation-member-alert', { fullPage: false });
      await alert.getByRole('button', { name: 'On my way' }).click();
      await expect(alert).toBeHidden();
    }

    // The crew's case screen names both, with the time each answered.
    const onTheWay = crew.getByTestId('teams-on-the-way');
    await expect(onTheWay).toContainText('Stroke team');
    await expect(onTheWay).toContainText(`${MEMBERS[0].displayName} ✓`);
    await expect(onTheWay).toContainText(`${MEMBERS[1].displayName} ✓`);
    await snap(crew, testInfo, 'team-activation-crew', { fullPage: false });

    // The ED's case detail: both on the way, with the times.
    await ed.getByTestId('case-card').filter({ hasText: caseNumber }).click();
    const panel = ed.getByRole('region', { name: 'Team activation' });
    await expect(panel.getByTestId('activation')).toContainText('2 of 2 on the way');
    await expect(panel).toContainText(`${MEMBERS[0].displayName}`);
    await expect(panel.getByText(/✓ On my way \d\d:\d\d/)).toHaveCount(2);
    await panel.scrollIntoViewIfNeeded();
    await snap(ed, testInfo, 'team-activation-case-detail', { fullPage: false });
  } finally {
    for (const p of pages) await p.context().close();
    // Other tests' stroke cases must not be proposed a team that exists only for this test.
    if (team)
      await adminCall(
        base,
        'DELETE',
        buildPath(routes.deleteTeam.path, { id: SEED.riversideRegional, teamId: team._id }),
      );
  }
});
