/**
 * Crew: requests after an acknowledge (issue 10, "Figures"; target 0). A medic opens a case in the crew
 * app (Chromium, the phone viewport, the real server), the case goes to Riverside Regional, and ed1
 * acknowledges it from the console's API. The bench counts every API request the crew's page makes from
 * the acknowledge until "Seen by … ED" is on screen and for 3 s after, and times ack → on screen.
 * Before issue 10 the crew app answered the channel's notice with a whole case GET.
 */
import { authorizationHeader, isApiPath } from '@inbound/contract';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { PHONE, STEP_TIMEOUT_MS, ensureAppsBuilt, launchChromium, ms, openStrokeCase } from './lib/browser';
import { verdict } from './lib/format';
import { freePort, startServer } from './lib/server';

const RIVERSIDE_HOSPITAL = 'hospital-riverside-regional';
const SETTLE_MS = 3_000;

export interface CrewAfterAckFigures {
  requests: string[];
  ackToScreenMs: number;
}

async function json(response: Response, what: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

export async function runCrewAfterAcknowledge(): Promise<CrewAfterAckFigures> {
  ensureAppsBuilt();
  const server = await startServer(await freePort());
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ ...PHONE, baseURL: server.url });
    const page = await context.newPage();
    // The case's server id and the crew's token, as the app's own first case request carries them.
    const created = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v4/twiageCases' && r.ok(),
      { timeout: STEP_TIMEOUT_MS },
    );
    await openStrokeCase(page);
    const answer = await created;
    const caseId = String(((await answer.json()) as { id?: string }).id ?? '');
    const crewAuth = (await answer.request().allHeaders()).authorization ?? '';
    if (!caseId || !crewAuth) throw new Error('the crew app created no case');
    await page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ }).waitFor({ timeout: STEP_TIMEOUT_MS });

    await json(
      await fetch(`${server.url}/v4/twiageCases/${caseId}`, {
        method: 'PATCH',
        headers: { Authorization: crewAuth, 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${caseId}` },
        body: JSON.stringify({ destinationHospital: RIVERSIDE_HOSPITAL }),
      }),
      'destination',
    );
    const signIn = await json(
      await fetch(`${server.url}/v4/auth/signin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'ed1', password: 'demo-ed1', twiageClient: 'hospital', platform: 'web' }),
      }),
      'ed1 sign-in',
    );
    const edToken = (signIn.authorizationToken as { token: string }).token;
    // Let the destination change's own notice settle before counting.
    await page.waitForTimeout(1_000);

    const requests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (isApiPath(url.pathname)) requests.push(`${request.method()} ${url.pathname}`);
    });
    const start = Date.now();
    await json(
      await fetch(`${server.url}/v4/hospitals/${RIVERSIDE_HOSPITAL}/inbound/${caseId}/acknowledge`, {
        method: 'POST',
        headers: { Authorization: authorizationHeader(edToken) },
      }),
      'acknowledge',
    );
    await page.getByTestId('ed-acknowledgement').waitFor({ timeout: STEP_TIMEOUT_MS });
    const ackToScreenMs = Date.now() - start;
    await page.waitForTimeout(SETTLE_MS);
    return { requests, ackToScreenMs };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function printCrewAfterAcknowledge(f: CrewAfterAckFigures): void {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.info(`\n== Crew: requests after an acknowledge (load average ${load}; a busy shared machine)`);
  console.info(
    `requests by the crew's page from the acknowledge to ${SETTLE_MS / 1000} s after "Seen by" shows: ` +
      `${f.requests.length} — target 0 (${verdict(f.requests.length === 0)})${f.requests.length ? `: ${f.requests.join(', ')}` : ''}`,
  );
  console.info(`  acknowledge (server answered) → "Seen by … ED" on screen: ${ms(f.ackToScreenMs)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printCrewAfterAcknowledge(await runCrewAfterAcknowledge());
}
