/**
 * Backup and restore time for 100,000 case events + 1 GB of media (issue 18, "Figures"), on SQLite and
 * on PostgreSQL (when reachable). The target: the HIPAA proposal's "restore within 72 h" — far away;
 * what matters is how the time grows, so the figures are printed per GB and per 100,000 events.
 *
 * Generates the data once per dialect: the demo seed, 1,000 cases with 100 events each (rows of the
 * size a crew's PATCH writes), and 1 GB of media files (100 × 10 MB of random bytes, which neither
 * compress nor dedupe) in the media store's layout. Then BENCH_RUNS (3) times: `createBackup` into a
 * new directory, `restoreBackup` into a new DATA_DIR / database, both removed after; the median is
 * printed with the CPU seconds of this process (pg_dump's and pg_restore's are their own, not in it)
 * and the load average. Everything generated is deleted at the end. Never asserts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, openSqlite, type Database } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { createBackup, sqliteFileOf, type BackupSource } from '../apps/server/src/modules/ops/backup';
import { restoreBackup } from '../apps/server/src/modules/ops/restore';
import { IDS } from '../apps/server/src/seed/demo-data';
import { seedDemoData } from '../apps/server/src/seed/seed';
import { systemClock } from '../apps/server/src/clock';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CASES = 1_000;
const EVENTS_PER_CASE = 100;
const MEDIA_FILES = Number(process.env.BENCH_MEDIA_FILES ?? 100);
const MEDIA_FILE_BYTES = 10 * 1024 * 1024;
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function newPgDatabase(): Promise<string> {
  const name = `inbound_bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
const dropPgDatabase = (url: string) =>
  adminQuery(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);

async function generate(database: Database, mediaDir: string): Promise<number> {
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { clock: systemClock, hashPassword });
  const owner = IDS.users.medic1;
  const complaintSet = await database.db.selectFrom('complaint_sets').select(['id', 'name']).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const payload = JSON.stringify({
    complaint: 'stroke',
    age: 72,
    gender: 'female',
    tags: [
      { name: 'BP', value: '182/96' },
      { name: 'GCS', value: '13' },
    ],
    notes: 'Left-sided weakness since 10:40, last known well 10:25.',
  });
  for (let c = 0; c < CASES; c++) {
    const caseId = randomUUID();
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('cases')
        .values({
          id: caseId,
          case_number: `B${String(c).padStart(6, '0')}`,
          placeholder_id: null,
          type: 'emsED',
          owned_by: owner,
          agency_id: IDS.agencies.riverside,
          truck_id: 'truck-riverside-medic-1',
          complaint_set_id: complaintSet.id,
          complaint_set_name: complaintSet.name,
          complaint_id: null,
          destination_hospital_id: null,
          age: 72,
          age_period: 0,
          gender: 'F',
          monitor_id: null,
          monitor_patient_id: null,
          monitor_type: null,
          patient_info: '[]',
          last_latitude: null,
          last_longitude: null,
          last_location_at: null,
          began_at: now,
          created_at: now,
          closed_at: null,
          arrived_at: null,
          updated_at: now,
          version: EVENTS_PER_CASE,
          acknowledged_hospital_id: null,
          acknowledged_by: null,
          acknowledged_by_name: null,
          acknowledged_at: null,
        })
        .execute();
      const events = Array.from({ length: EVENTS_PER_CASE }, (_, i) => ({
        id: randomUUID(),
        case_id: caseId,
        seq: i + 1,
        type: 'case.updated',
        actor_user_id: owner,
        created_at: now,
        client_created_at: now,
        payload,
      }));
      await trx.insertInto('case_events').values(events).execute();
    });
  }
  for (let f = 0; f < MEDIA_FILES; f++) {
    const dir = path.join(mediaDir, 'cases', randomUUID(), randomUUID());
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'original'), randomBytes(MEDIA_FILE_BYTES));
  }
  writeFileSync(path.join(path.dirname(mediaDir), 'jwt-secret'), `${randomBytes(48).toString('base64url')}\n`);
  return MEDIA_FILES * MEDIA_FILE_BYTES;
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'inbound-bench-backup-'));
  const dataDir = path.join(root, 'data');
  const mediaDir = path.join(dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  const databaseUrl = dialect === 'postgres' ? await newPgDatabase() : null;
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(root, { recursive: true, force: true })];
  if (databaseUrl) cleanups.push(() => dropPgDatabase(databaseUrl));
  try {
    const database = databaseUrl ? openPostgres(databaseUrl) : openSqlite(sqliteFileOf(dataDir));
    const generating = performance.now();
    const mediaBytes = await generate(database, mediaDir);
    await database.close();
    console.info(
      `  ${dialect}: generated ${CASES * EVENTS_PER_CASE} case events in ${CASES} cases + ${(mediaBytes / 1e9).toFixed(2)} GB media in ${((performance.now() - generating) / 1000).toFixed(0)} s`,
    );
    const source: BackupSource = { dataDir, databaseUrl, mediaDir };
    const backups: number[] = [];
    const restores: number[] = [];
    const cpu: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const backupDir = path.join(root, `backup-${run}`);
      const restoreDir = path.join(root, `restore-${run}`);
      const restoreUrl = databaseUrl ? await newPgDatabase() : null;
      try {
        let started = performance.now();
        let cpuBefore = process.cpuUsage();
        const manifest = await createBackup(source, backupDir);
        backups.push((performance.now() - started) / 1000);
        const backupCpu = process.cpuUsage(cpuBefore);
        if (manifest.tables.case_events !== CASES * EVENTS_PER_CASE)
          throw new Error('case events missing from the backup');
        started = performance.now();
        cpuBefore = process.cpuUsage();
        await restoreBackup(backupDir, {
          dataDir: restoreDir,
          databaseUrl: restoreUrl,
          mediaDir: path.join(restoreDir, 'media'),
        });
        restores.push((performance.now() - started) / 1000);
        const restoreCpu = process.cpuUsage(cpuBefore);
        cpu.push(
          `${((backupCpu.user + backupCpu.system) / 1e6).toFixed(1)}/${((restoreCpu.user + restoreCpu.system) / 1e6).toFixed(1)}`,
        );
      } finally {
        rmSync(backupDir, { recursive: true, force: true });
        rmSync(restoreDir, { recursive: true, force: true });
        if (restoreUrl) await dropPgDatabase(restoreUrl);
      }
    }
    console.info(
      `  ${dialect}: backup ${median(backups).toFixed(1)} s, restore ${median(restores).toFixed(1)} s (median of ${RUNS}: backups ${backups.map((s) => s.toFixed(1)).join('/')} s, restores ${restores.map((s) => s.toFixed(1)).join('/')} s; this process's CPU s backup/restore ${cpu.join(' ')}; target: restore within 72 h) — load average ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

async function pgReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}

console.info(
  `\n== backup and restore: ${CASES * EVENTS_PER_CASE} case events + ${(MEDIA_FILES * MEDIA_FILE_BYTES) / 1e9} GB media (load average ${loadavg()[0]!.toFixed(2)})`,
);
await runDialect('sqlite');
if (await pgReachable()) await runDialect('postgres');
else console.info('  postgres: not reachable, skipped');
