/**
 * The real server of the no-loss test: `buildApp` on a SQLite file in its own DATA dir, which can be
 * killed and started again. A kill is what a crash leaves on disk: the database file and its WAL are
 * copied, at that instant, into a fresh DATA dir, and the next start opens that copy (SQLite recovers
 * the WAL as after a real crash). The killed app is closed in the background and everything it does
 * after the kill — a commit still under way, an answer — reaches no one.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Ledger, ServerTemplate, ServerUnderTest } from './server-types';
import { routes } from '@inbound/contract';
import { buildApp } from '../../../apps/server/src/app.js';
import { systemClock } from '../../../apps/server/src/clock.js';
import { openSqlite } from '../../../apps/server/src/db/database.js';
import { migrateToLatest } from '../../../apps/server/src/db/migrate.js';
import { demoPassword, IDS } from '../../../apps/server/src/seed/demo-data.js';
import { seedDemoData } from '../../../apps/server/src/seed/seed.js';
import { cachedHash, testConfig } from '../../../apps/server/src/test/app.js';

const DB_FILE = 'inbound.db';
/**
 * DATA dirs go to memory (tmpfs) when the machine has one: the server still runs with synchronous=FULL,
 * but an fsync there is free, and this test is about what the code does, not how fast the disk is.
 */
const DATA_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
/** What SQLite keeps beside the database in WAL mode; a crash leaves both files. */
const WAL_FILE = `${DB_FILE}-wal`;
export const CREW_USER = 'medic1';
export const CREW_USER_ID = IDS.users.medic1;

export async function createServerTemplate(): Promise<ServerTemplate> {
  const dir = mkdtempSync(path.join(DATA_ROOT, 'inbound-noloss-template-'));
  const database = openSqlite(path.join(dir, DB_FILE));
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { clock: systemClock, hashPassword: cachedHash });
  await database.close();
  const app = await buildApp(testConfig({}, dir));
  const res = await app.inject({
    method: 'POST',
    url: routes.signIn.path,
    payload: { username: CREW_USER, password: demoPassword(CREW_USER), twiageClient: 'ems', platform: 'web' },
  });
  await app.close();
  if (res.statusCode !== 200) throw new Error(`sign-in of ${CREW_USER} failed: ${res.statusCode} ${res.body}`);
  const token = (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
  if (existsSync(path.join(dir, WAL_FILE))) throw new Error('template closed with a WAL left: copies would miss it');
  return { dir, token, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function createServerUnderTest(template: ServerTemplate): ServerUnderTest {
  const dirs: string[] = [];
  const closing: Promise<void>[] = [];
  let app: FastifyInstance | null = null;
  let generation = 0;
  let reader: LedgerReader | null = null;
  let dir = freshDir();
  copyFileSync(path.join(template.dir, DB_FILE), path.join(dir, DB_FILE));

  function freshDir(): string {
    const made = mkdtempSync(path.join(DATA_ROOT, 'inbound-noloss-data-'));
    dirs.push(made);
    return made;
  }

  return {
    get app() {
      return app;
    },
    get generation() {
      return generation;
    },

    async start() {
      if (app) return;
      app = await buildApp(testConfig({}, dir));
    },

    kill() {
      generation += 1;
      const crashed = app;
      app = null;
      // Synchronous copies with no await between them: no write of the old app can land in between.
      const next = freshDir();
      for (const file of [DB_FILE, WAL_FILE]) {
        const from = path.join(dir, file);
        if (existsSync(from)) copyFileSync(from, path.join(next, file));
      }
      dir = next;
      reader?.close();
      reader = null;
      if (crashed) closing.push(crashed.close().then(() => undefined));
    },

    ledger() {
      reader ??= openLedgerReader(path.join(dir, DB_FILE));
      return reader.read();
    },

    async dispose() {
      reader?.close();
      reader = null;
      if (app) closing.push(app.close().then(() => undefined));
      app = null;
      await Promise.allSettled(closing);
      for (const made of dirs) rmSync(made, { recursive: true, force: true });
    },
  };
}

interface LedgerReader {
  read(): Ledger;
  close(): void;
}

/** A connection of its own to the database file, as another process would read it. */
function openLedgerReader(file: string): LedgerReader {
  const sqlite = new SQLite(file);
  const keys = sqlite.prepare<[string], { key: string; case_id: string; status: number; response: string }>(
    'select key, case_id, status, response from case_idempotency_keys where user_id = ?',
  );
  const events = sqlite.prepare<[string], { id: string; case_id: string; seq: number; type: string; payload: string }>(
    `select e.id, e.case_id, e.seq, e.type, e.payload from case_events e
     join cases c on c.id = e.case_id where c.owned_by = ? order by e.case_id, e.seq`,
  );
  const cases = sqlite.prepare<[string], { id: string; placeholder_id: string | null }>(
    'select id, placeholder_id from cases where owned_by = ?',
  );
  return {
    read: () => ({
      keys: keys.all(CREW_USER_ID).map((k) => ({
        key: k.key,
        caseId: k.case_id,
        status: Number(k.status),
        response: JSON.parse(k.response) as unknown,
      })),
      events: events.all(CREW_USER_ID).map((e) => ({
        id: e.id,
        caseId: e.case_id,
        seq: Number(e.seq),
        type: e.type,
        payload: JSON.parse(e.payload) as Record<string, unknown>,
      })),
      cases: cases.all(CREW_USER_ID).map((c) => ({ id: c.id, placeholderId: c.placeholder_id })),
    }),
    close: () => sqlite.close(),
  };
}
