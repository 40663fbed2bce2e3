/**
 * Audit integrity on each dialect (issue 17): sign-ins, failed sign-ins, case changes, case reads and
 * admin changes land in hash-chained logs; `verifyAuditChains` finds a changed row, a removed row and
 * rows cut off the end; concurrent appends do not fork a chain; a rolled-back change leaves no entry;
 * the audit trail API is for organisation admins only and holds no patient data or token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditTrailPage, buildPath, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { RIVERSIDE_TRUCK, send, setDestination, signInAll, startCase } from '../../test/crew-api.js';
import { recordAdminChange } from '../admin/audit.js';
import { appendAudit, chainShard, verifyAuditChains, type AuditTable } from './audit-chain.js';
import { recordSecurityEvent } from './security-audit.js';

const dialects = await testDialects();
const PATIENT_NAME = 'Zebediah Quarterfield';

describe.each(dialects)('audit chains on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let ed1: string;
  let medic1: string;
  let caseId: string;

  const trail = (query: string, token: string) => t.get(`${routes.adminAuditTrail.path}?${query}`, token);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [admin, ed1, medic1] = await signInAll(t, ['admin', 'ed1', 'medic1']);
    const wrong = await t.app.inject({
      method: 'POST',
      url: routes.signIn.path,
      payload: { username: 'medic1', password: 'not-the-password', twiageClient: 'ems', platform: 'web' },
    });
    expect(wrong.statusCode).toBe(401);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, IDS.hospitals.riversideRegional);
    const named = await send(
      t,
      'PUT',
      buildPath(routes.caseDynamicForm.path, { id: caseId, formId: IDS.patientInfoForm }),
      medic1,
      { body: { fields: [{ key: 'firstName', value: PATIENT_NAME }] } },
    );
    expect(named.statusCode, named.body).toBe(200);
    const detail = await send(
      t,
      'GET',
      buildPath(routes.inboundCase.path, { id: IDS.hospitals.riversideRegional, caseId }),
      ed1,
      { key: null },
    );
    expect(detail.statusCode, detail.body).toBe(200);
    const disable = await t.database.db.transaction().execute((trx) =>
      recordAdminChange(trx, {
        actor: {
          userId: 'user-admin',
          username: 'admin',
          sessionId: 's',
          roles: ['orgAdmin'],
          memberOf: [],
          administers: [],
          teamIds: [],
          edHospitalIds: [],
        },
        action: 'test.change',
        entityType: 'user',
        entityId: 'user-medic1',
        summary: 'A test change',
      }),
    );
    expect(disable).toBeUndefined();
  });
  afterAll(() => t.close());

  it('records sign-ins, a failed sign-in, case changes, reads and admin changes; every chain holds', async () => {
    const rows = await t.database.db.selectFrom('security_audit').selectAll().execute();
    const actions = rows.map((row) => row.action);
    expect(actions.filter((a) => a === 'auth.signIn').length).toBeGreaterThanOrEqual(3);
    expect(rows.find((row) => row.action === 'auth.signInFailed')).toMatchObject({ actor_id: 'user-medic1' });
    const caseRows = rows.filter((row) => row.case_id === caseId);
    expect(caseRows.map((row) => row.action)).toContain('case.patientInfo');
    expect(caseRows.every((row) => row.chain === chainShard('case', caseId))).toBe(true);
    const reads = await t.database.db.selectFrom('case_read_audit').selectAll().where('case_id', '=', caseId).execute();
    expect(reads.map((row) => row.access)).toContain('detail');
    expect(reads.every((row) => row.hash !== null && row.chain?.startsWith('read:'))).toBe(true);
    const result = await verifyAuditChains(t.database.db);
    expect(result.problems).toEqual([]);
    expect(result.rows).toBeGreaterThan(rows.length);
    expect(result.chains.map((c) => c.chain)).toContain('admin');
  });

  it('keeps patient data and tokens out of the log', async () => {
    const rows = await t.database.db.selectFrom('security_audit').selectAll().execute();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(PATIENT_NAME);
    expect(text).not.toContain(medic1);
    expect(text).not.toContain('not-the-password');
  });

  it('finds a changed row, and the chain holds again once it is put back', async () => {
    const victim = await t.database.db
      .selectFrom('security_audit')
      .selectAll()
      .where('action', '=', 'auth.signInFailed')
      .executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('security_audit')
      .set({ actor_id: 'user-ed1' })
      .where('id', '=', victim.id)
      .execute();
    const tampered = await verifyAuditChains(t.database.db);
    expect(tampered.problems).toEqual([
      {
        table: 'security_audit',
        chain: victim.chain,
        seq: victim.seq,
        problem: `row ${victim.seq} was changed (hash differs)`,
      },
    ]);
    await t.database.db
      .updateTable('security_audit')
      .set({ actor_id: victim.actor_id })
      .where('id', '=', victim.id)
      .execute();
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);
  });

  it('finds a removed row, and rows cut off the end of a chain', async () => {
    const chain = 'auth:test-removal';
    const event = (n: number) => ({
      chain,
      row: {
        id: `removal-${dialect}-${n}`,
        at: new Date().toISOString(),
        actor_id: 'user-admin',
        action: 'test.removal',
        entity_type: 'user',
        entity_id: String(n),
        case_id: null,
        detail: null,
      },
    });
    await appendAudit(t.database.db, 'security_audit', [event(1), event(2), event(3), event(4)]);
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);
    await t.database.db.deleteFrom('security_audit').where('id', '=', `removal-${dialect}-4`).execute();
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([
      expect.objectContaining({ chain, seq: 3, problem: expect.stringContaining('head says row 4') as unknown }),
    ]);
    await t.database.db.deleteFrom('security_audit').where('id', '=', `removal-${dialect}-2`).execute();
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([
      { table: 'security_audit', chain, seq: 2, problem: 'row 2 is missing (next is 3)' },
    ]);
    await t.database.db.deleteFrom('security_audit').where('chain', '=', chain).execute();
    await t.database.db.deleteFrom('audit_chain_heads').where('chain', '=', chain).execute();
  });

  it('does not fork a chain under concurrent appends, and a rolled-back change leaves nothing', async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        recordSecurityEvent(t.database.db, {
          actorId: 'user-admin',
          action: 'test.concurrent',
          entityType: 'user',
          entityId: String(n),
          at: new Date(),
        }),
      ),
    );
    const before = await t.database.db.selectFrom('security_audit').select('id').execute();
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordSecurityEvent(trx, {
          actorId: 'user-admin',
          action: 'test.rollback',
          entityType: 'user',
          entityId: 'x',
          at: new Date(),
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.database.db.selectFrom('security_audit').select('id').execute()).toHaveLength(before.length);
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);
  });

  it('serves the trail to organisation admins only, filtered by case and log', async () => {
    expectClientError(await trail('log=security', ed1), 403);
    expectClientError(await trail('log=security', medic1), 403);
    expectClientError(await trail('log=security', ''), 401);
    expectClientError(await trail('log=nonsense', admin), 400);
    const res = await trail(`log=security&caseId=${caseId}&limit=2`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const first = AuditTrailPage.parse(res.json());
    expect(first.entries).toHaveLength(2);
    expect(first.entries.every((e) => e.caseId === caseId && e.actorId === 'user-medic1')).toBe(true);
    expect(first.nextCursor).not.toBeNull();
    const next = AuditTrailPage.parse(
      (await trail(`log=security&caseId=${caseId}&cursor=${first.nextCursor ?? ''}`, admin)).json(),
    );
    const ids = [...first.entries, ...next.entries].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const reads = AuditTrailPage.parse((await trail(`log=reads&caseId=${caseId}`, admin)).json());
    expect(reads.entries.map((e) => e.action)).toContain('case.read.detail');
    expect(reads.entries[0]?.chainRef).toMatch(/^read:\d#\d+$/);
    const failed = AuditTrailPage.parse((await trail('action=auth.signInFailed', admin)).json());
    expect(failed.entries[0]?.detail).toMatchObject({ reason: 'password', client: 'ems' });
  });
});

describe('chain helpers', () => {
  it('shards by key, stably', () => {
    expect(chainShard('case', 'abc')).toBe(chainShard('case', 'abc'));
    expect(chainShard('case', 'abc')).toMatch(/^case:[0-7]$/);
    const tables: AuditTable[] = ['admin_audit', 'case_read_audit', 'security_audit'];
    expect(tables).toHaveLength(3);
  });
});
