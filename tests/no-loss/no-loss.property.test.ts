/**
 * Issue 3, "No loss, randomized": fast-check generates schedules of case changes, offline periods,
 * server kills (as a request arrives, and between its commit and its answer), server restarts and
 * client restarts, and runs each against the REAL pieces — the crew app's outbox on IndexedDB and the
 * server's `buildApp` on a SQLite file. After every step, every change is on the server exactly once or
 * still in the outbox (no-loss-check.ts); at the end, back online, the outbox drains and the server holds
 * every change once, in the order made, and each case reads back as the crew entered it.
 *
 * NO_LOSS_RUNS sets the number of schedules (default 200, as CI runs it). The seed is printed first;
 * NO_LOSS_SEED=<seed> replays a run. A failure also prints the shrunk schedule and fast-check's path; a
 * schedule that hangs (30 s) is a failure too.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { authorizationHeader, routes, type Case } from '@inbound/contract';
import { newCrewCase, planChanges, type CrewCase, type PlannedChange } from './case-changes';
import { openCrewDevice, type CrewDevice } from './crew-device';
import { createNetwork, type Network } from './network';
import { noLossProblems } from './no-loss-check';
import { scheduleArbitrary, type Step } from './schedule';
import { loadServerHarness } from './load-server-harness';
import type { ServerHarness, ServerTemplate, ServerUnderTest } from './server/server-types';

const RUNS = Number(process.env.NO_LOSS_RUNS ?? 200);
/** Printed before the first schedule, so even a run cut short by a timeout can be replayed. */
const SEED = process.env.NO_LOSS_SEED ? Number(process.env.NO_LOSS_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Flushes allowed at the end to drain everything once the link and the server are back. */
const DRAIN_ROUNDS = 3;

let harness: ServerHarness;
let template: ServerTemplate;
let runs = 0;
const totals = { steps: 0, changes: 0, delivered: 0, replayed: 0, kills: 0 };

beforeAll(async () => {
  harness = await loadServerHarness();
  template = await harness.createServerTemplate();
});

afterAll(() => {
  template?.remove();
});

interface World {
  server: ServerUnderTest;
  network: Network;
  device: CrewDevice;
  cases: CrewCase[];
}

async function enqueueAll(world: World, crewCase: CrewCase, planned: PlannedChange[]): Promise<void> {
  for (const change of planned) {
    const info = await world.device.outbox.enqueue(change.input);
    crewCase.changes.push({ key: info.key, label: change.label, expect: change.expect });
  }
}

async function startCase(world: World, truckPick: number): Promise<void> {
  // A crew starts a case a little after the last one: placeholder ids are `placeholder-{ms}`.
  world.device.time.advance(1_000);
  const now = world.device.time.clock.now();
  const { crewCase, create } = newCrewCase(`placeholder-${now}`, truckPick, new Date(now).toISOString());
  world.cases.push(crewCase);
  await enqueueAll(world, crewCase, [create]);
}

async function perform(world: World, step: Step): Promise<void> {
  const { server, network, device } = world;
  switch (step.do) {
    case 'startCase':
      return startCase(world, step.truck);
    case 'change': {
      const open = world.cases.filter((c) => !c.closed);
      if (open.length === 0) return startCase(world, step.pick);
      const crewCase = open[step.caseIndex % open.length]!;
      const caseId = step.stale || crewCase.realId === null ? crewCase.placeholderId : crewCase.realId;
      const now = device.time.clock.now();
      return enqueueAll(world, crewCase, planChanges(crewCase, caseId, step.kind, step.pick, step.pick2, now));
    }
    case 'quickTaps': {
      const open = world.cases.filter((c) => !c.closed);
      if (open.length === 0) return startCase(world, step.caseIndex);
      const crewCase = open[step.caseIndex % open.length]!;
      const caseId = crewCase.realId ?? crewCase.placeholderId;
      const planned: PlannedChange[] = [];
      for (const tap of step.taps) {
        // A tap after the case was closed (by an earlier tap of the burst) is not possible in the app.
        if (crewCase.closed) break;
        planned.push(...planChanges(crewCase, caseId, tap.kind, tap.pick, tap.pick2, device.time.clock.now()));
      }
      // Enqueued at once, not one after the other: the outbox must keep them in the order of the taps.
      const infos = await Promise.all(planned.map((change) => device.outbox.enqueue(change.input)));
      infos.forEach((info, i) =>
        crewCase.changes.push({ key: info.key, label: planned[i]!.label, expect: planned[i]!.expect }),
      );
      return;
    }
    case 'goOffline':
      network.online = false;
      device.browser.dispatchEvent(new Event('offline'));
      return;
    case 'goOnline':
      network.online = true;
      device.browser.dispatchEvent(new Event('online'));
      return;
    case 'flush':
      return device.outbox.flush();
    case 'wait':
      device.time.advance(step.ms);
      return;
    case 'killServer':
      network.armedKill = step.at;
      return device.outbox.flush();
    case 'restartServer':
      return server.start();
    case 'restartClient': {
      const crash = async () => {
        if (step.lostLocalIds) for (const crewCase of world.cases) crewCase.realId = null;
        await device.restart();
      };
      if (!step.inFlight) return crash();
      network.crashClientOnDelivery = crash;
      await device.outbox.flush();
      // Nothing was sent (offline, nothing queued, server down): the page dies idle instead.
      if (network.crashClientOnDelivery) {
        network.crashClientOnDelivery = null;
        return crash();
      }
      await network.clientCrash;
      network.clientCrash = null;
      return;
    }
  }
}

async function checkNoLoss(world: World, where: string): Promise<void> {
  const outbox = world.device.outbox;
  const problems = noLossProblems(world.cases, world.server.ledger(), {
    pending: await outbox.listPending(),
    rejected: await outbox.listRejected(),
  });
  if (problems.length > 0) throw new Error(`${where}:\n  - ${problems.join('\n  - ')}`);
}

/** After draining: each case, read through the API, is what the crew entered. */
async function checkCasesReadBack(world: World, token: string): Promise<void> {
  const app = world.server.app!;
  for (const crewCase of world.cases) {
    expect(crewCase.realId, `${crewCase.placeholderId} has its server id`).not.toBeNull();
    const res = await app.inject({
      method: 'GET',
      url: routes.getCase.path.replace(':id', crewCase.realId!),
      headers: { authorization: authorizationHeader(token) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const read = res.json() as Case;
    expect(
      {
        truck: read.truck,
        complaint: read.complaint,
        tags: read.tags.map((t) => t.id).sort(),
        destinationHospital: read.destinationHospital?.id ?? null,
        gender: read.gender,
        age: read.age,
        agePeriod: read.agePeriod,
        patientInfo: read.patientInfo,
        location: read.lastLocation && { latitude: read.lastLocation.latitude, longitude: read.lastLocation.longitude },
        closed: read.arrivedAt !== null,
      },
      `case ${crewCase.placeholderId} as read back`,
    ).toEqual({
      truck: crewCase.truck,
      complaint: crewCase.complaint,
      tags: [...crewCase.tags].sort(),
      destinationHospital: crewCase.hospital,
      gender: crewCase.gender,
      age: crewCase.age,
      agePeriod: crewCase.agePeriod,
      patientInfo: crewCase.patientInfo,
      location: crewCase.location,
      closed: crewCase.closed,
    });
  }
}

async function runSchedule(steps: Step[]): Promise<void> {
  runs += 1;
  const server = harness.createServerUnderTest(template);
  const network = createNetwork(server);
  const cases: CrewCase[] = [];
  let device: CrewDevice | null = null;
  const generationAtStart = server.generation;
  try {
    await server.start();
    device = await openCrewDevice({
      dbName: `inbound-outbox-noloss-${runs}`,
      token: template.token,
      fetch: network.fetch,
      cases,
    });
    const world: World = { server, network, device, cases };
    for (const [i, step] of steps.entries()) {
      await perform(world, step);
      await device.outbox.whenIdle();
      await checkNoLoss(world, `after step ${i + 1} ${JSON.stringify(step)}`);
    }

    // The end: the link and the server come back, nothing more is killed, and the outbox drains.
    network.armedKill = null;
    await server.start();
    network.online = true;
    device.browser.dispatchEvent(new Event('online'));
    for (let round = 0; round < DRAIN_ROUNDS && (await device.outbox.pendingCount()) > 0; round++) {
      await device.outbox.flush();
      await device.outbox.whenIdle();
    }
    await checkNoLoss(world, 'after draining');
    expect(await device.outbox.listPending(), 'nothing left in the outbox after draining').toEqual([]);
    await checkCasesReadBack(world, template.token);

    totals.steps += steps.length;
    totals.changes += cases.reduce((sum, c) => sum + c.changes.length, 0);
    totals.delivered += network.delivered;
    totals.replayed += network.replayed;
    totals.kills += server.generation - generationAtStart;
  } finally {
    await device?.dispose();
    await server.dispose();
  }
}

test(`no change is lost or written twice, over ${RUNS} random schedules`, async () => {
  const started = performance.now();
  console.info(`no-loss: seed ${SEED} (replay: NO_LOSS_SEED=${SEED} npx vitest run --project no-loss)`);
  await fc.assert(
    fc.asyncProperty(scheduleArbitrary, (steps) => runSchedule(steps)),
    { numRuns: RUNS, seed: SEED, timeout: 30_000 },
  );
  console.info(
    `no-loss: ${RUNS} schedules, ${totals.steps} steps, ${totals.changes} changes, ${totals.delivered} requests delivered ` +
      `(${totals.replayed} answered as repeats), ${totals.kills} server kills, in ${Math.round(performance.now() - started)} ms`,
  );
});
