/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>`: the server's own configuration (DATA_DIR,
 * DATABASE_URL, MEDIA_DIR, S3_*) says what to back up or where to restore to. See docs/backup.md.
 */
import { parseConfig } from '../../config.js';
import { createBackup, type BackupSource } from './backup.js';
import { restoreBackup } from './restore.js';

const [command, dir] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !dir) {
  console.error('usage: npm run backup -- <dir>   |   npm run restore -- <dir>');
  process.exit(2);
}
const parsed = parseConfig(process.env);
if (!parsed.ok) {
  console.error(`inbound ${command}: invalid configuration:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(2);
}
const { config } = parsed;
const source: BackupSource = {
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  mediaDir: config.media.s3 ? null : config.media.dir,
};
const log = (line: string) => console.info(`  ${line}`);
const started = performance.now();
try {
  if (command === 'backup') {
    console.info(`inbound backup → ${dir}`);
    if (config.media.s3)
      log(`media live in bucket ${config.media.s3.bucket}: not copied (use the bucket's versioning)`);
    const manifest = await createBackup(source, dir, log);
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    const mediaBytes = manifest.media.files.reduce((a, f) => a + f.bytes, 0);
    console.info(
      `done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.media.files.length} media files (${(mediaBytes / 1e6).toFixed(1)} MB); every write acknowledged before ${manifest.startedAt} is in it`,
    );
  } else {
    console.info(`inbound restore ${dir} → ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}`);
    const manifest = await restoreBackup(dir, source, log);
    console.info(
      `done in ${((performance.now() - started) / 1000).toFixed(1)} s: backup of ${manifest.startedAt} restored, hashes and row counts checked; start the server on it`,
    );
  }
} catch (error) {
  console.error(`inbound ${command} failed: ${(error as Error).message}`);
  process.exit(1);
}
