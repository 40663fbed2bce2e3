/**
 * Issue 11, several processes in the browser: the crew app and the hospital console against one server
 * port served by TWO worker processes (WORKERS=2, node:cluster) on PostgreSQL + Redis. The primary hands
 * connections to the workers in turn, so the two pages' requests and live connections land on both
 * (every answer names its worker: `Inbound-Worker`, checked below). The crew starts a stroke case and
 * picks the hospital → the ED's board shows it; the ED acknowledges → the crew sees "Seen by …"; they
 * chat both ways. A resumed upload across processes is the API test's (several-processes.int.test.ts).
 * Skipped, with the reason, where PostgreSQL or Redis is not running — except under CI.
 */
import { expect, test as base, type Response } from '@playwright/test';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { caseNumberFromHeading, chooseHospital, expectNothingWaiting, startCase } from '../support/cases';
import { signInToConsole } from '../support/console';
import { signInToStart } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';
import { REPO_ROOT, freePort, freshDataDir, serverEnv, waitForHealth } from '../support/server';

const PG = { host: '127.0.0.1', user: 'postgres' };
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function psql(command: string): void {
  execFileSync('psql', ['-h', PG.host, '-U', PG.user, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', command], {
    stdio: 'ignore',
    timeout: 10_000,
  });
}

function reachable(): string | null {
  try {
    psql('select 1');
  } catch {
    return `PostgreSQL not reachable at ${PG.host}:5432 (psql)`;
  }
  try {
    const pong = execFileSync('redis-cli', ['-u', REDIS_URL, 'ping'], { timeout: 5_000 }).toString().trim();
    if (pong !== 'PONG') return `Redis answered ${pong}`;
  } catch {
    return `Redis not reachable at ${REDIS_URL} (redis-cli)`;
  }
  return null;
}

const missing = reachable();
if (missing && process.env.CI) throw new Error(`${missing} — but CI requires the two-process browser test`);

interface ClusterServer {
  url: string;
}

const test = base.extend<{ cluster: ClusterServer }>({
  cluster: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured
    async ({}, use) => {
      const port = await freePort();
      const dataDir = freshDataDir(`e2e-cluster-${port}`);
      const database = `inbound_e2e_cluster_${randomBytes(4).toString('hex')}`;
      psql(`create database ${database}`);
      const child: ChildProcess = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ...serverEnv(port, dataDir),
          WORKERS: '2',
          DATABASE_URL: `postgres://${PG.user}@${PG.host}:5432/${database}`,
          REDIS_URL,
          REDIS_KEY_PREFIX: `inbound-e2e-${database}:`,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
        detached: true,
      });
      const url = `http://127.0.0.1:${port}`;
      try {
        await waitForHealth(url, 90_000, child);
        await use({ url });
      } finally {
        if (child.exitCode === null && child.pid) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          process.kill(-child.pid, 'SIGTERM');
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
        }
        rmSync(dataDir, { recursive: true, force: true });
        psql(`drop database if exists ${database} with (force)`);
      }
    },
    { timeout: 120_000 },
  ],
});

test.skip(missing !== null, missing ?? '');

test('crew app and console on two worker processes: the case, the acknowledgement and the chat cross them', async ({
  browser,
  cluster,
}) => {
  test.setTimeout(120_000);
  const workers = new Set<string>();
  const noteWorker = (response: Response) => {
    const worker = response.headers()['inbound-worker'];
    if (worker) workers.add(worker);
  };

  const edContext = await browser.newContext({
    baseURL: cluster.url,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const ed = await edContext.newPage();
  ed.on('response', noteWorker);
  await signInToConsole(ed, users.ed1.username);
  await expect(ed.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(ed.getByTestId('connection')).toHaveText(/Live/);

  const crewContext = await browser.newContext({
    baseURL: cluster.url,
    viewport: { width: 1024, height: 768 },
    hasTouch: true,
    timezoneId: 'UTC',
    serviceWorkers: 'block',
  });
  const crew = await crewContext.newPage();
  crew.on('response', noteWorker);
  await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseHospital(crew, hospitals.riversideRegional);
  await expectNothingWaiting(crew);

  // The crew's write, on whichever worker took it, reaches the ED's live board.
  const card = ed.getByTestId('case-card').filter({ hasText: caseNumber });
  await expect(card).toBeVisible({ timeout: 10_000 });
  await expect(card).toContainText('Not acknowledged');

  // The ED acknowledges; the crew's case screen says so, live.
  await card.click();
  await ed.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ed.getByTestId('acknowledged')).toContainText(`Seen by ${hospitals.riversideRegional} ED`);
  await expect(crew.getByTestId('ed-acknowledgement')).toHaveText(
    new RegExp(`Seen by ${hospitals.riversideRegional} ED \\d\\d:\\d\\d`),
    { timeout: 10_000 },
  );

  // Chat both ways.
  await crew.getByRole('tab', { name: 'CHAT' }).click();
  await crew.getByRole('textbox', { name: 'Write a message' }).fill('Left arm drift, glucose 6.4');
  await crew.keyboard.press('Enter');
  const edChat = ed.getByRole('region', { name: 'Chat with the crew' });
  await expect(edChat.getByText('Left arm drift, glucose 6.4')).toBeVisible({ timeout: 10_000 });
  await edChat.getByRole('textbox', { name: 'Message to the crew' }).fill('Stroke team at the door, CT 1 held');
  await edChat.getByRole('button', { name: 'Send' }).click();
  await expect(
    crew.getByRole('log', { name: 'Chat messages' }).getByText('Stroke team at the door, CT 1 held'),
  ).toBeVisible({ timeout: 10_000 });

  // Both worker processes answered these pages.
  expect([...workers].sort()).toEqual(['1', '2']);
  await crewContext.close();
  await edContext.close();
});
