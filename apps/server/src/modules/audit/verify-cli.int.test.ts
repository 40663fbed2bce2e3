/**
 * `npm run audit:verify` as an operator runs it, on a SQLite data directory: exit 0 and the chain heads
 * when every chain holds; exit 1 naming the table, chain and row once a row is changed behind the
 * server's back.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { recordSecurityEvent } from './security-audit.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-audit-verify-'));

async function verify(): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/modules/audit/verify-cli.ts'],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run audit:verify', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('passes an intact log and reports the first broken link of a tampered one', async () => {
    const database = createDatabase({ dataDir, databaseUrl: null });
    await migrateToLatest(database.db);
    for (const n of [1, 2, 3])
      await recordSecurityEvent(database.db, {
        actorId: 'user-admin',
        action: 'auth.signIn',
        entityType: 'session',
        entityId: `session-${n}`,
        at: new Date(),
      });
    const intact = await verify();
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/audit chains hold: 3 rows in 1 chains/);
    expect(intact.stdout).toMatch(/auth:\d #3 [0-9a-f]{64}/);

    await database.db.updateTable('security_audit').set({ entity_id: 'session-9' }).where('seq', '=', 2).execute();
    await database.close();
    const tampered = await verify();
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/BROKEN security_audit chain auth:\d at row 2: row 2 was changed/);
  }, 60_000);
});
