/**
 * A backup proven by restoring it, on each dialect: crews write (new cases, photos) while the backup
 * runs; the backup is restored into a fresh, empty place; a server started on it finds every write
 * acknowledged before the backup started, serves the photos with the same bytes, and accepts the
 * tokens signed before (the secrets came along). A restore into a non-empty place is refused.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  CreateCaseResponse,
  MediaListResponse,
  MediaUploadResponse,
  routes,
} from '@inbound/contract';
import { buildApp } from '../../app.js';
import { openPostgres, openSqlite, type Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { IDS } from '../../seed/demo-data.js';
import { seedDemoData } from '../../seed/seed.js';
import { cachedHash, testConfig, TEST_SECRET } from '../../test/app.js';
import { createTestClock } from '../../test/clock.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/databases.js';
import { makeTestMedia } from '../media/test-media.js';
import { createBackup, sqliteFileOf, type BackupSource } from './backup.js';
import { restoreBackup } from './restore.js';

const dialects = await testDialects();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe.each(dialects)('backup and restore on %s', (dialect) => {
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), `inbound-${name}-`));
    dirs.push(dir);
    return dir;
  };
  const pgDatabases: TestDatabase[] = [];
  let jpeg: Buffer;

  beforeAll(async () => {
    jpeg = (await makeTestMedia(tempDir('media-src'))).jpeg;
  });
  afterAll(async () => {
    for (const database of pgDatabases) await database.destroy();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A server as `main.ts` starts one: its DATA_DIR (SQLite file, secrets, media) or a PostgreSQL URL. */
  async function startServer(dataDir: string, databaseUrl: string | null) {
    const config = testConfig(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, dataDir);
    // The secret comes from DATA_DIR, as in production (the restored one must be the original).
    const jwtSecret = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
    const database: Database = databaseUrl ? openPostgres(databaseUrl, 4) : openSqlite(sqliteFileOf(dataDir));
    await migrateToLatest(database.db);
    const app = await buildApp({ ...config, jwtSecret }, { database, clock: createTestClock() });
    return {
      app,
      async close() {
        await app.close();
        await database.close();
      },
    };
  }

  const auth = (token: string) => ({ authorization: authorizationHeader(token) });

  async function newCase(app: FastifyInstance, token: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: `/v4/twiageCases?placeholder-${randomUUID()}`,
      headers: { ...auth(token), 'idempotency-key': randomUUID() },
      payload: {
        emsAgency: IDS.agencies.riverside,
        truck: 'truck-riverside-medic-1',
        beganAt: new Date().toISOString(),
      },
    });
    if (res.statusCode !== 201) throw new Error(`case: ${res.statusCode} ${res.body}`);
    return CreateCaseResponse.parse(res.json()).id;
  }

  async function uploadPhoto(app: FastifyInstance, token: string, caseId: string) {
    const form = new FormData();
    form.append('type', 'photo');
    form.append('data', new Blob([jpeg]), 'file');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await app.inject({
      method: 'POST',
      url: buildPath(routes.uploadMedia.path, { id: caseId }),
      headers: {
        ...auth(token),
        'idempotency-key': randomUUID(),
        'content-type': request.headers.get('content-type') ?? '',
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
    return MediaUploadResponse.parse(res.json()).upload.id;
  }

  /** The photo's file as the server serves it, once converted. */
  async function photoBytes(app: FastifyInstance, token: string, caseId: string, uploadId: string): Promise<Buffer> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = await app.inject({
        method: 'GET',
        url: buildPath(routes.listMedia.path, { id: caseId }),
        headers: auth(token),
      });
      const upload = MediaListResponse.parse(list.json()).uploads.find((u) => u.id === uploadId);
      if (upload?.status === 'ready') {
        const file = await app.inject({ method: 'GET', url: upload.url, headers: auth(token) });
        expect(file.statusCode).toBe(200);
        return file.rawPayload;
      }
      if (Date.now() > deadline) throw new Error(`photo ${uploadId} not ready: ${upload?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('restores every write acknowledged before the backup started, with its media, while crews write', async () => {
    // The running deployment.
    const dataDir = tempDir('live');
    let databaseUrl: string | null = null;
    if (dialect === 'postgres') {
      const live = await createTestDatabase('postgres', { migrate: false });
      pgDatabases.push(live);
      databaseUrl = live.url;
    }
    writeFileSync(path.join(dataDir, 'jwt-secret'), `${TEST_SECRET}\n`, { mode: 0o600 });
    {
      const database = databaseUrl ? openPostgres(databaseUrl, 2) : openSqlite(sqliteFileOf(dataDir));
      await migrateToLatest(database.db);
      await seedDemoData(database.db, { clock: createTestClock(), hashPassword: cachedHash });
      await database.close();
    }
    const live = await startServer(dataDir, databaseUrl);
    const signIn = async (username: string) => {
      const res = await live.app.inject({
        method: 'POST',
        url: routes.signIn.path,
        payload: { username, password: `demo-${username}`, twiageClient: 'ems', platform: 'web' },
      });
      return (res.json() as { authorizationToken: { token: string } }).authorizationToken.token;
    };
    const medic1 = await signIn('medic1');

    // Photos acknowledged (and converted) before the backup.
    const photos: { caseId: string; uploadId: string; sha: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const caseId = await newCase(live.app, medic1);
      const uploadId = await uploadPhoto(live.app, medic1, caseId);
      photos.push({ caseId, uploadId, sha: sha256(await photoBytes(live.app, medic1, caseId, uploadId)) });
    }

    // Crews writing the whole time: every acknowledged case with the time it was acknowledged.
    const acknowledged: { caseId: string; at: number }[] = [];
    let writing = true;
    const crew = async () => {
      while (writing) {
        const caseId = await newCase(live.app, medic1);
        acknowledged.push({ caseId, at: performance.now() });
        if (acknowledged.length % 5 === 0) await uploadPhoto(live.app, medic1, caseId);
      }
    };
    const crews = [crew(), crew(), crew()];
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));

    const backupDir = path.join(tempDir('backup'), 'b');
    const source: BackupSource = { dataDir, databaseUrl, mediaDir: path.join(dataDir, 'media') };
    const startedAt = performance.now();
    const manifest = await createBackup(source, backupDir);
    const writtenDuringBackup = acknowledged.filter((w) => w.at > startedAt).length;
    writing = false;
    await Promise.all(crews);
    await live.close();

    const before = acknowledged.filter((w) => w.at < startedAt);
    expect(before.length).toBeGreaterThanOrEqual(20);
    // The crews kept writing while it ran (otherwise this test would not test "while crews write").
    expect(writtenDuringBackup).toBeGreaterThan(0);
    expect(manifest.dialect).toBe(dialect);
    expect(manifest.tables.cases).toBeGreaterThanOrEqual(before.length + photos.length);
    expect(manifest.media.files.length).toBeGreaterThanOrEqual(photos.length);
    expect(manifest.secrets.map((s) => s.path)).toContain('jwt-secret');

    // Refused: a non-empty DATA_DIR, a PostgreSQL database with tables.
    const occupied = tempDir('occupied');
    writeFileSync(path.join(occupied, 'something'), 'x');
    await expect(restoreBackup(backupDir, { ...source, dataDir: occupied, mediaDir: null })).rejects.toThrow(
      /is not empty/,
    );
    if (databaseUrl) {
      await expect(
        restoreBackup(backupDir, { dataDir: tempDir('empty'), databaseUrl, mediaDir: null }),
      ).rejects.toThrow(/has tables/);
    }

    // Restored into a fresh, empty place, and a server started on it.
    const freshDir = path.join(tempDir('restored'), 'data');
    let freshUrl: string | null = null;
    if (dialect === 'postgres') {
      const fresh = await createTestDatabase('postgres', { migrate: false });
      pgDatabases.push(fresh);
      freshUrl = fresh.url;
    }
    await restoreBackup(backupDir, {
      dataDir: freshDir,
      databaseUrl: freshUrl,
      mediaDir: path.join(freshDir, 'media'),
    });
    const restored = await startServer(freshDir, freshUrl);
    try {
      // The token signed before the backup still works: the secret and the session came along.
      for (const write of before) {
        const res = await restored.app.inject({
          method: 'GET',
          url: `/v4/twiageCases/${write.caseId}`,
          headers: auth(medic1),
        });
        expect(res.statusCode, `case ${write.caseId} acknowledged before the backup`).toBe(200);
      }
      for (const photo of photos) {
        expect(sha256(await photoBytes(restored.app, medic1, photo.caseId, photo.uploadId))).toBe(photo.sha);
      }
      const ready = await restored.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
    } finally {
      await restored.close();
    }
  }, 180_000);
});
