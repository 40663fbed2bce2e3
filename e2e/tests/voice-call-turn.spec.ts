import { expect, test } from '@playwright/test';
import { caseNumberFromHeading, chooseHospital, startCase } from '../support/cases';
import { signInToConsole } from '../support/console';
import { startCoturn, type RunningTurn } from '../support/coturn';
import { signInToStart } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';
import { startPrivateServer, type RunningServer } from '../support/server';
import {
  audioStats,
  expectGrowing,
  FAKE_MEDIA_LAUNCH,
  watchConsoleCallStates,
  watchPeerConnections,
} from '../support/webrtc';

// Issue 12, "Networks": a call through a real TURN server — Debian's coturn with the TURN REST shared
// secret, the server minting each call's credentials, and the relay-only ICE policy (as a deployment
// that hides addresses would set it), so the audio can only flow through coturn's relay.
test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

let turn: RunningTurn;
let server: RunningServer;

test.beforeAll(async () => {
  turn = await startCoturn();
  server = await startPrivateServer({
    ICE_SERVERS: '[]',
    TURN_URLS: turn.url,
    TURN_SECRET: turn.secret,
    TURN_CREDENTIAL_TTL: '10m',
    ICE_TRANSPORT_POLICY: 'relay',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await turn?.stop();
});

test('a call connects through coturn with relay-only ICE: both ends use relay candidates and hear each other', async ({
  browser,
}) => {
  test.slow();
  const crewContext = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
  });
  const consoleContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  const crew = await crewContext.newPage();
  const nurse = await consoleContext.newPage();
  await watchPeerConnections(crew);
  await watchPeerConnections(nurse);

  await signInToConsole(nurse, users.ed1.username);
  await expect(nurse.getByTestId('connection')).toHaveText(/Live/);
  await signInToStart(crew, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(crew);
  const caseNumber = await caseNumberFromHeading(crew);
  await chooseHospital(crew, hospitals.riversideRegional);

  await crew.getByRole('button', { name: 'Call the emergency department' }).click();
  const ring = nurse.getByTestId('incoming-call');
  await expect(ring).toContainText(`Case ${caseNumber}`);
  await ring.getByRole('button', { name: 'Answer' }).click();

  const callScreen = crew.getByRole('dialog', { name: `Call with ${hospitals.riversideRegional}` });
  await expect(callScreen.getByTestId('call-state')).toHaveText(/^\d\d:\d\d/, { timeout: 20_000 });
  await expect(nurse.getByTestId('console-call-state')).toHaveText(/^\d\d:\d\d/, { timeout: 20_000 });
  await expectGrowing(crew, 'bytesReceived');
  await expectGrowing(nurse, 'bytesReceived');
  for (const page of [crew, nurse]) {
    const stats = await audioStats(page);
    expect(stats.localCandidateType, 'the path in use starts at a TURN relay').toBe('relay');
    expect(stats.remoteCandidateType).toBe('relay');
  }
  // coturn saw authenticated allocations with the server-minted, time-limited usernames.
  expect(turn.log()).toMatch(/ALLOCATE processed, success/);
  await expect(callScreen.getByTestId('call-quality')).toContainText('via relay', { timeout: 10_000 });

  const callStates = await watchConsoleCallStates(nurse);
  await callScreen.getByRole('button', { name: 'Hang up' }).click();
  await expect.poll(callStates).toContain('Disconnected');
  await crewContext.close();
  await consoleContext.close();
});
