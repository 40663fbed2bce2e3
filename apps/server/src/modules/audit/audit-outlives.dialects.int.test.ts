/**
 * Audit rows outlive what they name (issue 17; migration 20261127_1150_read_audit_outlives): deleting
 * a case, or a user who read it, leaves the read log's rows — ids only — and every hash chain holds.
 * Before the migration the read log cascaded on both deletes and audit:verify reported the chain broken.
 * Crew reads of their own cases are not in the read log (decision 0032): shown here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditTrailPage, buildPath, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { addUser, RIVERSIDE_TRUCK, send, setDestination, startCase } from '../../test/crew-api.js';
import { verifyAuditChains } from './audit-chain.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;

describe.each(dialects)('audit rows after deletes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('keeps the read log and its chains whole when the case and the reader are deleted', async () => {
    const medic1 = await t.signIn('medic1');
    const { id: caseId } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, caseId, RIVERSIDE);
    const readerId = await addUser(t, 'ednight', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    const reader = await t.signIn('ednight');
    const detail = buildPath(routes.inboundCase.path, { id: RIVERSIDE, caseId });
    expect((await send(t, 'GET', detail, reader, { key: null })).statusCode).toBe(200);
    // The crew reading its own case: not in the read log (decision 0032).
    expect((await send(t, 'GET', `/v4/twiageCases/${caseId}`, medic1, { key: null })).statusCode).toBe(200);
    const reads = () => t.database.db.selectFrom('case_read_audit').selectAll().where('case_id', '=', caseId).execute();
    const before = await reads();
    expect(before.map((row) => row.user_id)).toEqual([readerId]);
    expect((await verifyAuditChains(t.database.db)).problems).toEqual([]);

    await t.database.db.deleteFrom('cases').where('id', '=', caseId).execute();
    await t.database.db.deleteFrom('users').where('id', '=', readerId).execute();

    expect(await reads()).toEqual(before);
    const result = await verifyAuditChains(t.database.db);
    expect(result.problems).toEqual([]);
    expect(result.rows).toBeGreaterThan(0);
  });

  it('filters the audit trail by chain and time, as the console page asks', async () => {
    const admin = await t.signIn('admin');
    const page = async (query: string) => {
      const res = await t.get(`${routes.adminAuditTrail.path}?${query}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return AuditTrailPage.parse(res.json()).entries;
    };
    const all = await page('log=security&limit=200');
    expect(all.length).toBeGreaterThan(2);
    const chain = all[0]!.chainRef.split('#')[0]!;
    const inChain = await page(`log=security&limit=200&chain=${encodeURIComponent(chain)}`);
    expect(inChain.length).toBeGreaterThan(0);
    expect(inChain.every((entry) => entry.chainRef.startsWith(`${chain}#`))).toBe(true);
    expect(inChain.length).toBeLessThanOrEqual(all.length);
    const oldest = all.at(-1)!.at;
    const after = await page(
      `log=security&limit=200&from=${encodeURIComponent(new Date(Date.parse(oldest) + 1).toISOString())}`,
    );
    expect(after.every((entry) => entry.at > oldest)).toBe(true);
    const before = await page(
      `log=security&limit=200&to=${encodeURIComponent(new Date(Date.parse(oldest) + 1).toISOString())}`,
    );
    expect(before.every((entry) => entry.at <= oldest)).toBe(true);
    expect(before.length).toBeGreaterThan(0);
    const bad = await t.get(`${routes.adminAuditTrail.path}?chain=${encodeURIComponent("x'; drop")}`, admin);
    expect(bad.statusCode).toBe(400);
  });
});
