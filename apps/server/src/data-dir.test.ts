import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const mode = (file: string) => statSync(file).mode & 0o777;

describe('files at rest (issue 17 item 8)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'inbound-private-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes DATA_DIR, what was in it and everything written later private: the database, its WAL, media', () => {
    const dataDir = path.join(root, 'data');
    mkdirSync(path.join(dataDir, 'media/old'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(dataDir, 'media/old/photo.jpeg'), 'x', { mode: 0o644 });
    // A separate process: the umask belongs to the process (and cannot be set in a test worker).
    const script = `
      import { writeFileSync, mkdirSync } from 'node:fs';
      import { securePrivateFiles } from ${JSON.stringify(path.join(here, 'data-dir.ts'))};
      import { openSqlite } from ${JSON.stringify(path.join(here, 'db/database.ts'))};
      process.umask(0o022);
      securePrivateFiles([${JSON.stringify(dataDir)}]);
      const db = openSqlite(${JSON.stringify(path.join(dataDir, 'inbound.db'))});
      await db.db.schema.createTable('t').addColumn('a', 'text').execute();
      mkdirSync(${JSON.stringify(path.join(dataDir, 'media/new'))}, { recursive: true });
      writeFileSync(${JSON.stringify(path.join(dataDir, 'media/new/video.mp4'))}, 'x');
      await db.close();
    `;
    const result = spawnSync(tsx, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(mode(dataDir)).toBe(0o700);
    for (const dir of ['media', 'media/old', 'media/new']) expect(mode(path.join(dataDir, dir)), dir).toBe(0o700);
    for (const file of ['inbound.db', 'media/old/photo.jpeg', 'media/new/video.mp4']) {
      expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    }
  });
});
