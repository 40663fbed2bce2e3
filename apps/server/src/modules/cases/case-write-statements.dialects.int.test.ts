/**
 * Issue 11: what one case write costs the database in statements — on PostgreSQL each is a round trip
 * (node-postgres does not pipeline), so their number bounds a process's events per second. The relay is
 * off (it announces after the commit, in batches; not part of the write's latency), and the write is
 * the second of its user, so sign-in and caches are warm. Each driver's statement calls are counted in
 * this process while the one request runs; the list is printed, so a change in it is seen, not guessed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { RIVERSIDE_TRUCK, send, setDestination, startCase } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Runs `work`, answering the SQL of every statement the dialect's driver ran meanwhile, in order. */
async function statementsOf(dialect: string, work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const proto =
    dialect === 'postgres'
      ? (pg.Client.prototype as unknown as Record<string, unknown>)
      : (Object.getPrototypeOf(new Sqlite(':memory:').prepare('select 1')) as Record<string, unknown>);
  const names = dialect === 'postgres' ? ['query'] : ['run', 'all', 'get'];
  const originals = names.map((name) => [name, proto[name]] as const);
  for (const [name, original] of originals)
    proto[name] = function (this: { source?: string }, ...args: unknown[]) {
      const text = dialect === 'postgres' ? args[0] : this.source;
      seen.push(String(typeof text === 'object' && text !== null ? (text as { text: string }).text : text));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  try {
    await work();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return seen.map((sql) => sql.replace(/\s+/g, ' ').trim());
}

describe.each(dialects)('a case write, statement by statement, on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let caseId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect, relayOutbox: false });
    token = await t.signIn('medic1');
    caseId = (await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, token, caseId, IDS.hospitals.riversideRegional);
  });
  afterAll(async () => {
    await t.close();
  });

  const patchAge = (age: number) =>
    send(t, 'PATCH', `/v4/twiageCases/${caseId}`, token, { body: { age, agePeriod: 3 } });
  const reportPosition = () =>
    send(t, 'POST', `/v4/twiageCases/${caseId}/locationUpdates`, token, {
      body: { latitude: 41.9, longitude: -87.63, accuracy: 8, recordedAt: '2026-11-21T11:59:00.000Z' },
    });

  it('an age change: one read before the transaction, then the event, the audit row with the key', async () => {
    expect((await patchAge(40)).statusCode).toBe(200);
    const statements = await statementsOf(dialect, async () => {
      expect((await patchAge(41)).statusCode).toBe(200);
    });
    console.info(`${dialect}: ${statements.length} statements for an age change\n  ${statements.join('\n  ')}`);
    // The idempotency key, the case and the user's access in one read (two before).
    expect(statements.filter((sql) => sql.includes('"case_idempotency_keys"') && sql.startsWith('select'))).toEqual([
      expect.stringContaining('left join "case_access"'),
    ]);
    // The case's new columns go in the UPDATE that moves its version to the event: one UPDATE of the row.
    expect(statements.filter((sql) => sql.includes('update "cases"'))).toEqual([
      expect.stringMatching(/update "cases" set "age" = .*"age_period" = .*"version" = .*"updated_at" = /),
    ]);
    // PostgreSQL: findForWrite, then the whole write as one statement on its own (decision 0054): the case
    // update (of the row version read first), the audit head's move and the row's hash, the event, its
    // outbox row, the audit row and the key — no begin, no commit, no lock read (decision 0050). SQLite:
    // in-process, so they stay apart, and its writer reads the case again (no round trip).
    if (dialect === 'postgres') {
      expect(statements.some((sql) => sql.endsWith('for update'))).toBe(false);
      expect(statements).toHaveLength(2);
      expect(statements.some((sql) => /^(begin|commit)/.test(sql))).toBe(false);
    } else expect(statements.length).toBeLessThanOrEqual(13);
  });

  it('a position report with a destination reads the fence in one statement', async () => {
    expect((await reportPosition()).statusCode).toBe(200);
    const statements = await statementsOf(dialect, async () => {
      expect((await reportPosition()).statusCode).toBe(200);
    });
    console.info(`${dialect}: ${statements.length} statements for a position report\n  ${statements.join('\n  ')}`);
    const fence = statements.filter((sql) => sql.includes('"hospital_arrival_settings"'));
    expect(fence).toEqual([expect.stringContaining('from "hospitals" left join "hospital_arrival_settings"')]);
    expect(statements.some((sql) => sql.includes('"hospital_statuses"'))).toBe(false);
  });

  it('keys the rows a write appends in time order (UUIDv7), so they land on the last page of their index', async () => {
    const before = Date.now();
    expect((await patchAge(42)).statusCode).toBe(200);
    expect((await patchAge(43)).statusCode).toBe(200);
    const events = await t.database.db
      .selectFrom('case_events')
      .select(['id', 'seq'])
      .where('case_id', '=', caseId)
      .orderBy('seq')
      .execute();
    const audit = await t.database.db
      .selectFrom('security_audit')
      .select('id')
      .where('case_id', '=', caseId)
      .orderBy('seq')
      .execute();
    for (const { id } of [...events.slice(-2), ...audit.slice(-2)]) {
      expect(id).toMatch(UUID_V7);
      expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(before);
    }
    const ids = events.map((event) => event.id);
    expect([...ids].sort()).toEqual(ids);
  });
});
