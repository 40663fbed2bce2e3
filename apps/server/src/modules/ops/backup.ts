/**
 * Backups that a restore can prove: the database (SQLite through its online backup API, PostgreSQL
 * through `pg_dump --format=custom` on an exported snapshot), the media files, the secrets kept in
 * DATA_DIR, and a manifest with every table's row count and every file's SHA-256 — counted in the same
 * snapshot the copy was taken from, so a restore can check that it got exactly what was backed up.
 *
 * Consistency while the server runs: the database copy is one snapshot taken after `startedAt`, so every
 * write acknowledged before the backup started is in it. Media files are copied after that snapshot; a
 * file is stored (fsynced, renamed into place) before the row naming it commits, so every file the
 * snapshot names is there to copy. Files written later may be copied too; they are harmless extras.
 *
 * The backup directory holds secrets (the JWT signing secret, the VAPID private key) and patient data:
 * it is made mode 700, and belongs on encrypted storage.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CLIENT_VERSION } from '@inbound/contract';
import { migrations } from '../../db/migrate.js';
import { VAPID_KEYS_FILE } from '../push/vapid-keys.js';

export const MANIFEST_FILE = 'manifest.json';
export const SQLITE_FILE = 'database.sqlite';
export const PG_DUMP_FILE = 'database.pgdump';
export const MEDIA_DIR = 'media';
export const SECRETS_DIR = 'secrets';
/** DATA_DIR's own files besides the database: without them restored tokens and push subscriptions fail. */
export const SECRET_FILES = ['jwt-secret', VAPID_KEYS_FILE];

export interface BackupSource {
  dataDir: string;
  /** PostgreSQL when set; else SQLite at DATA_DIR/inbound.db. */
  databaseUrl: string | null;
  /** The local media store's directory; null when media live in a bucket (not copied: see backup.md). */
  mediaDir: string | null;
}

export interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  app: { version: string; latestMigration: string };
  /** Every write acknowledged before this instant is in the backup. */
  startedAt: string;
  finishedAt: string;
  dialect: 'sqlite' | 'postgres';
  tables: Record<string, number>;
  database: FileEntry;
  media: { included: boolean; files: FileEntry[] };
  secrets: FileEntry[];
}

export const sqliteFileOf = (dataDir: string) => path.join(dataDir, 'inbound.db');

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function entry(root: string, relative: string): Promise<FileEntry> {
  const file = path.join(root, relative);
  return { path: relative, bytes: (await stat(file)).size, sha256: await sha256File(file) };
}

/** Media store files, as keys relative to its root: no scratch directories (dot names) or partial files. */
export async function listMediaFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const item of await readdir(path.join(root, relative), { withFileTypes: true })) {
      if (item.name.startsWith('.') || item.name.includes('.part-')) continue;
      const child = relative ? `${relative}/${item.name}` : item.name;
      if (item.isDirectory()) await walk(child);
      else if (item.isFile()) found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

export function sqliteTableCounts(database: SQLite.Database): Record<string, number> {
  const names = database
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    names.map((name) => [name, database.prepare(`select count(*) from "${name}"`).pluck().get() as number]),
  );
}

export async function pgTableCounts(client: pg.ClientBase): Promise<Record<string, number>> {
  const { rows } = await client.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  const counts: Record<string, number> = {};
  for (const { tablename } of rows) {
    const result = await client.query<{ n: string }>(`select count(*) as n from "${tablename}"`);
    counts[tablename] = Number(result.rows[0]!.n);
  }
  return counts;
}

/** Runs a Debian PostgreSQL client tool; rejects with its stderr when it fails. */
export function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${command} not found: install Debian's postgresql-client (scripts/ensure-system-packages.sh postgresql-client)`,
            )
          : error,
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

async function backupSqlite(dataDir: string, target: string): Promise<Record<string, number>> {
  const source = new SQLite(sqliteFileOf(dataDir), { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // sqlite3_backup: after the first 100 pages, the rest in one step (one read snapshot), so a busy
    // writer cannot keep restarting it.
    await source.backup(target, { progress: () => 1_000_000_000 });
  } finally {
    source.close();
  }
  const copy = new SQLite(target);
  try {
    const check = copy.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`the database copy fails its integrity check: ${check}`);
    // One file, no -wal beside it: a backup that is a single self-contained file.
    copy.pragma('journal_mode = DELETE');
    return sqliteTableCounts(copy);
  } finally {
    copy.close();
  }
}

async function backupPostgres(url: string, target: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Counts and dump from one snapshot: pg_dump joins the transaction's exported snapshot.
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const counts = await pgTableCounts(client);
    await runTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${rows[0]!.id}`,
      `--file=${target}`,
      `--dbname=${url}`,
    ]);
    await client.query('commit');
    return counts;
  } finally {
    await client.end();
  }
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

export async function createBackup(
  source: BackupSource,
  target: string,
  log: (line: string) => void = () => undefined,
): Promise<Manifest> {
  if (!(await isEmptyOrMissing(target))) throw new Error(`${target} is not empty: a backup goes into a new directory`);
  await mkdir(target, { recursive: true, mode: 0o700 });
  await chmod(target, 0o700);
  const startedAt = new Date().toISOString();

  const dialect = source.databaseUrl ? 'postgres' : 'sqlite';
  const databaseFile = dialect === 'postgres' ? PG_DUMP_FILE : SQLITE_FILE;
  log(`database (${dialect}) …`);
  const tables = source.databaseUrl
    ? await backupPostgres(source.databaseUrl, path.join(target, databaseFile))
    : await backupSqlite(source.dataDir, path.join(target, databaseFile));
  const database = await entry(target, databaseFile);

  const files: FileEntry[] = [];
  if (source.mediaDir) {
    const keys = await listMediaFiles(source.mediaDir);
    log(`media: ${keys.length} files …`);
    for (const key of keys) {
      const destination = path.join(target, MEDIA_DIR, key);
      await mkdir(path.dirname(destination), { recursive: true });
      await copyFile(path.join(source.mediaDir, key), destination);
      files.push({ ...(await entry(path.join(target, MEDIA_DIR), key)) });
    }
  }

  const secrets: FileEntry[] = [];
  for (const name of SECRET_FILES) {
    if (!existsSync(path.join(source.dataDir, name))) continue;
    await mkdir(path.join(target, SECRETS_DIR), { recursive: true, mode: 0o700 });
    await copyFile(path.join(source.dataDir, name), path.join(target, SECRETS_DIR, name));
    await chmod(path.join(target, SECRETS_DIR, name), 0o600);
    secrets.push(await entry(path.join(target, SECRETS_DIR), name));
  }

  const manifest: Manifest = {
    format: 1,
    app: { version: CLIENT_VERSION, latestMigration: Object.keys(migrations).at(-1) ?? '' },
    startedAt,
    finishedAt: new Date().toISOString(),
    dialect,
    tables,
    database,
    media: { included: source.mediaDir !== null, files },
    secrets,
  };
  await writeFile(path.join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}
