/**
 * Restores a backup made by backup.ts into an EMPTY place — a DATA_DIR (and media directory) with
 * nothing in it, or a PostgreSQL database without tables — and refuses anything else, so a restore can
 * never overwrite live data. Every file's hash is checked before anything is written, and every table's
 * row count after: a restore that answers has restored exactly what the manifest lists.
 *
 * The restored server migrates a backup from an older version on start, as after any upgrade.
 */
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  MANIFEST_FILE,
  MEDIA_DIR,
  PG_DUMP_FILE,
  SECRETS_DIR,
  SQLITE_FILE,
  pgTableCounts,
  runTool,
  sha256File,
  sqliteFileOf,
  sqliteTableCounts,
  type BackupSource,
  type FileEntry,
  type Manifest,
} from './backup.js';

async function emptyOrMissing(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

async function verify(root: string, files: FileEntry[]): Promise<void> {
  for (const file of files) {
    const actual = await sha256File(path.join(root, file.path));
    if (actual !== file.sha256) throw new Error(`backup damaged: ${file.path} does not match its hash in the manifest`);
  }
}

function compareCounts(expected: Record<string, number>, actual: Record<string, number>): void {
  const wrong = Object.entries(expected).filter(([table, rows]) => actual[table] !== rows);
  if (wrong.length > 0) {
    throw new Error(
      `restored row counts differ from the manifest: ${wrong.map(([t, n]) => `${t} ${actual[t] ?? 'missing'} ≠ ${n}`).join(', ')}`,
    );
  }
}

async function pgHasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from pg_tables where schemaname = 'public'",
    );
    return Number(rows[0]!.n) > 0;
  } finally {
    await client.end();
  }
}

export async function restoreBackup(
  backupDir: string,
  target: BackupSource,
  log: (line: string) => void = () => undefined,
): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(backupDir, MANIFEST_FILE), 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new Error(`unknown backup format ${String(manifest.format)}`);
  const wanted = target.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.dialect !== wanted) {
    throw new Error(`this backup is of ${manifest.dialect}; the target is ${wanted} (set or unset DATABASE_URL)`);
  }

  // Refuse a non-empty target before touching anything.
  if (!(await emptyOrMissing(target.dataDir)))
    throw new Error(`DATA_DIR ${target.dataDir} is not empty: restore into an empty one`);
  if (target.mediaDir && !(await emptyOrMissing(target.mediaDir))) {
    throw new Error(`the media directory ${target.mediaDir} is not empty: restore into an empty one`);
  }
  if (target.databaseUrl && (await pgHasTables(target.databaseUrl))) {
    throw new Error('the target PostgreSQL database has tables: restore into an empty database');
  }

  log('checking hashes …');
  await verify(backupDir, [manifest.database]);
  await verify(path.join(backupDir, MEDIA_DIR), manifest.media.files);
  await verify(path.join(backupDir, SECRETS_DIR), manifest.secrets);

  await mkdir(target.dataDir, { recursive: true, mode: 0o700 });
  log(`database (${manifest.dialect}) …`);
  if (target.databaseUrl) {
    await runTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${target.databaseUrl}`,
      path.join(backupDir, PG_DUMP_FILE),
    ]);
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      compareCounts(manifest.tables, await pgTableCounts(client));
    } finally {
      await client.end();
    }
  } else {
    const file = sqliteFileOf(target.dataDir);
    await copyFile(path.join(backupDir, SQLITE_FILE), `${file}.restoring`);
    const restored = new SQLite(`${file}.restoring`, { readonly: true });
    try {
      compareCounts(manifest.tables, sqliteTableCounts(restored));
    } finally {
      restored.close();
    }
    await rename(`${file}.restoring`, file);
  }

  if (manifest.media.files.length > 0 && target.mediaDir) {
    log(`media: ${manifest.media.files.length} files …`);
    for (const file of manifest.media.files) {
      const destination = path.join(target.mediaDir, file.path);
      await mkdir(path.dirname(destination), { recursive: true });
      await copyFile(path.join(backupDir, MEDIA_DIR, file.path), destination);
    }
    await verify(target.mediaDir, manifest.media.files);
  }
  for (const secret of manifest.secrets) {
    const destination = path.join(target.dataDir, secret.path);
    await copyFile(path.join(backupDir, SECRETS_DIR, secret.path), destination);
    await chmod(destination, 0o600);
  }
  return manifest;
}
