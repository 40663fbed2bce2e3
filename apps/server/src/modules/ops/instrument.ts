/**
 * The ops module's ties to the rest of the server, kept here so `app.ts` needs a few lines only: the
 * database's figures as metric sources, a push transport that counts, and the readiness checks.
 */
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { pendingMigrations } from '../../db/migrate.js';
import type { PushTransport } from '../push/push.service.js';
import type { DatabaseSources, Metrics, PushOutcome } from './metrics.js';
import type { ReadinessCheck } from './ops.routes.js';

/** Pool figures on PostgreSQL; the WAL file's size on SQLite (0 right after a checkpoint truncated it). */
export function databaseSources(database: Database): DatabaseSources {
  if (database.poolStats) return { pool: database.poolStats };
  if (database.dialect === 'sqlite' && database.location !== ':memory:') {
    const wal = `${database.location}-wal`;
    return { walBytes: () => statSync(wal, { throwIfNoEntry: false })?.size ?? 0 };
  }
  return {};
}

function pushOutcome(status: number): PushOutcome {
  if (status === 404 || status === 410) return 'gone';
  return status >= 400 ? 'refused' : 'sent';
}

export function countingPushTransport(transport: PushTransport, metrics: Metrics): PushTransport {
  return async (request) => {
    try {
      const answer = await transport(request);
      metrics.pushSent(pushOutcome(answer.status));
      return answer;
    } catch (error) {
      metrics.pushSent('error');
      throw error;
    }
  };
}

export function readinessChecks(database: Database, brokerPing: () => Promise<void>): ReadinessCheck[] {
  return [
    {
      name: 'database',
      check: async () => {
        await sql`select 1`.execute(database.db);
      },
    },
    {
      name: 'migrations',
      check: async () => {
        const pending = await pendingMigrations(database.db);
        if (pending.length > 0) throw new Error(`${pending.length} migrations not applied: ${pending.join(', ')}`);
      },
    },
    { name: 'broker', check: brokerPing },
  ];
}
