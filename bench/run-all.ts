/**
 * Every benchmark, one after another: `npm run bench` (root) or `npm run bench -w @inbound/bench`.
 * Each prints its figures beside its targets; none asserts. The figures are also written to
 * bench/results/latest.json (ignored by git) so a run can be compared with the README's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { printApiLoad, runApiLoad } from './api-load';
import { measureBundle, measureConsoleBundle, printBundleReport, printConsoleBundleReport } from './bundle-size';
import { printConsoleBoardRender, runConsoleBoardRender } from './console-board-render';
import { printCrewAfterAcknowledge, runCrewAfterAcknowledge } from './crew-after-acknowledge';
import { printCaseWrites, runCaseWrites } from './case-writes';
import { printRealtimeFanout, runRealtimeFanout } from './realtime-fanout';
import { ensureAppsBuilt } from './lib/browser';
import { printMediaSend, runMediaSend } from './media-send';
import { printOfflineStart, runOfflineStart } from './offline-start';
import { printTapToSaved, runTapToSaved } from './tap-to-saved';
import { printProtocols, runProtocols } from './protocols';
import { printDesktopGps, runDesktopGps } from './desktop-gps';
import { printArrivalToBoard, runArrivalToBoard } from './arrival-to-board';
import { printConversionFairness, runConversionFairness } from './conversion-fairness';

const started = Date.now();
const load = loadavg()[0] ?? 0;
const machine = { cpus: cpus().length, node: process.version, loadAverage1m: Math.round(load * 100) / 100 };
const results: Record<string, unknown> = { startedAt: new Date(started).toISOString(), machine };

console.info(`bench: ${machine.cpus} CPUs, Node ${machine.node}, load average (1 min) ${machine.loadAverage1m}`);
if (load > machine.cpus * 0.5) {
  console.info('  (the machine is busy with other work: latency figures will be worse than on an idle machine)');
}

// bundle-size reads the crew app's build and the browser benches serve it: build it when missing.
ensureAppsBuilt();

try {
  const bundle = measureBundle();
  printBundleReport(bundle);
  results.bundle = bundle;
  const consoleBundle = measureConsoleBundle();
  printConsoleBundleReport(consoleBundle, bundle);
  results.consoleBundle = consoleBundle;
} catch (error) {
  console.error(`bundle-size: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const api = await runApiLoad();
  printApiLoad(api);
  results.api = api;
} catch (error) {
  console.error(`api-load: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const caseWrites = await runCaseWrites();
  printCaseWrites(caseWrites);
  results.caseWrites = caseWrites;
} catch (error) {
  console.error(`case-writes: ${(error as Error).message}`);
  process.exitCode = 1;
}

// The browser benches: each starts its own server and Chromium, and drives the built crew app.
try {
  const tapToSaved = await runTapToSaved();
  printTapToSaved(tapToSaved);
  results.tapToSaved = tapToSaved;
} catch (error) {
  console.error(`tap-to-saved: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const desktopGps = await runDesktopGps();
  printDesktopGps(desktopGps);
  results.desktopGps = desktopGps;
} catch (error) {
  console.error(`desktop-gps: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const offlineStart = await runOfflineStart();
  printOfflineStart(offlineStart);
  results.offlineStart = offlineStart;
} catch (error) {
  console.error(`offline-start: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const consoleBoard = await runConsoleBoardRender();
  printConsoleBoardRender(consoleBoard);
  results.consoleBoard = consoleBoard;
} catch (error) {
  console.error(`console-board-render: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const crewAfterAck = await runCrewAfterAcknowledge();
  printCrewAfterAcknowledge(crewAfterAck);
  results.crewAfterAck = crewAfterAck;
} catch (error) {
  console.error(`crew-after-acknowledge: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const realtime = await runRealtimeFanout();
  printRealtimeFanout(realtime);
  results.realtime = realtime;
} catch (error) {
  console.error(`realtime-fanout: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const mediaSend = await runMediaSend();
  printMediaSend(mediaSend);
  results.mediaSend = mediaSend;
} catch (error) {
  console.error(`media-send: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const protocols = await runProtocols();
  printProtocols(protocols);
  results.protocols = protocols;
} catch (error) {
  console.error(`protocols: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const arrival = await runArrivalToBoard();
  printArrivalToBoard(arrival);
  results.arrivalToBoard = arrival;
} catch (error) {
  console.error(`arrival-to-board: ${(error as Error).message}`);
  process.exitCode = 1;
}

try {
  const conversion = await runConversionFairness();
  printConversionFairness(conversion);
  results.conversionFairness = conversion;
} catch (error) {
  console.error(`conversion-fairness: ${(error as Error).message}`);
  process.exitCode = 1;
}

const resultsDir = path.join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
console.info(`\nbench: done in ${((Date.now() - started) / 1000).toFixed(0)} s (figures in bench/results/latest.json)`);
