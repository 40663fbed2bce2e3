/**
 * The real server for browser tests that need time to pass: team activation's re-alerts every 2 min and
 * escalation at 20 min (issue 15), and Web Push delivered to a local endpoint. A test file, never
 * started by `main.ts` and never part of what a deployment runs: its clock control is a second HTTP
 * listener on 127.0.0.1 at CONTROL_PORT, which exists only in this process.
 *
 * Like main.ts (one process, SQLite, the environment's config), with two differences:
 * - the server's clock is the system's plus an offset the test moves: `POST /advance?ms=N` moves it and
 *   runs the activation sweep at once (the 5 s sweep runs too, on the moved clock); `GET /now` says the
 *   server's time, so the test can set the browsers' clocks (Playwright's `page.clock`) to match;
 * - push subscriptions may name any http(s) endpoint, so the server's real push request (web-push,
 *   encrypted per RFC 8291) reaches an endpoint the test listens on.
 *
 *   CONTROL_PORT=… PORT=… DATA_DIR=… SEED_DEMO=true npx tsx apps/server/src/test/movable-clock-server.ts
 */
import { createServer } from 'node:http';
import { buildApp } from '../app.js';
import type { Clock } from '../clock.js';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { seedDemoData } from '../seed/seed.js';

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

const controlPort = Number(process.env.CONTROL_PORT);
if (!Number.isInteger(controlPort) || controlPort <= 0) {
  console.error('movable-clock-server: CONTROL_PORT must be a port number');
  process.exit(2);
}

const config = loadConfig();
const database = createDatabase(config);
await migrateToLatest(database.db);
if (config.seedDemo) await seedDemoData(database.db, { clock, hashPassword });
const app = await buildApp(config, { database, clock, push: { allowAnyEndpoint: true } });
await app.listen({ port: config.port, host: '127.0.0.1' });

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  const answer = (status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && url.pathname === '/now') return answer(200, { now: clock.now().toISOString() });
  if (request.method === 'POST' && url.pathname === '/advance') {
    const ms = Number(url.searchParams.get('ms'));
    if (!Number.isFinite(ms) || ms < 0) return answer(400, { message: 'ms: a duration in milliseconds, ≥ 0' });
    offsetMs += ms;
    app.teamActivationTick().then(
      (ran) => answer(200, { now: clock.now().toISOString(), ran }),
      (error: unknown) => answer(500, { message: error instanceof Error ? error.message : String(error) }),
    );
    return undefined;
  }
  return answer(404, { message: 'GET /now or POST /advance?ms=N' });
});
control.listen(controlPort, '127.0.0.1');

const shutdown = () => {
  control.close();
  app
    .close()
    .then(() => database.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
