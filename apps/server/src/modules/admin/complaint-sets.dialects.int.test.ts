/**
 * Complaint-set export and import on SQLite and PostgreSQL: authorisation matrix, errors naming the
 * entry, atomic new versions (concurrent imports included), audit rows, and crews reading the new
 * version from the unchanged GET /v4/complaintSets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminComplaintSetsResponse,
  ComplaintSetExport,
  ComplaintSetImportResponse,
  ComplaintSetsResponse,
  routes,
} from '@inbound/contract';
import { HILLTOP_SET_NAME, STANDARD_SET_NAME } from '../../seed/complaint-sets.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { send, signInAll, type Method } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const exportUrl = (name: string) => `${routes.adminExportComplaintSet.path}?name=${encodeURIComponent(name)}`;
const IMPORT = routes.adminImportComplaintSet.path;

describe.each(dialects)('complaint-set administration on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let ed1: string;
  let medic1: string;
  let medic2: string;
  const call = (method: Method, url: string, token: string | null, body?: unknown) =>
    send(t, method, url, token, { body, key: null });
  const versions = async (name: string) =>
    (await t.database.db.selectFrom('complaint_sets').select('version').where('name', '=', name).execute())
      .map((r) => Number(r.version))
      .sort();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [admin, ed1, medic1, medic2] = await signInAll(t, ['admin', 'ed1', 'medic1', 'medic2']);
  });
  afterAll(() => t.close());

  it('is for organisation admins only: 401 without a token, 403 for ED staff and crews', async () => {
    const file = ComplaintSetExport.parse((await call('GET', exportUrl(HILLTOP_SET_NAME), admin)).json());
    const calls: [Method, string, unknown][] = [
      ['GET', routes.adminComplaintSets.path, undefined],
      ['GET', exportUrl(HILLTOP_SET_NAME), undefined],
      ['POST', IMPORT, file],
    ];
    for (const [method, url, body] of calls) {
      expectClientError(await call(method, url, null, body), 401);
      for (const token of [ed1, medic1, medic2]) expectClientError(await call(method, url, token, body), 403);
    }
    expect(await versions(HILLTOP_SET_NAME)).toEqual([1]);
  });

  it('lists the newest version of each set with the agencies using it', async () => {
    const { sets } = AdminComplaintSetsResponse.parse(
      (await call('GET', routes.adminComplaintSets.path, admin)).json(),
    );
    expect(sets.map((s) => [s.name, s.version])).toEqual([
      [HILLTOP_SET_NAME, 1],
      [STANDARD_SET_NAME, 2],
    ]);
    expect(sets[1]!.agencies.map((a) => a.id).sort()).toEqual([IDS.agencies.lakeside, IDS.agencies.riverside].sort());
    expect(sets[1]!.complaintCount).toBeGreaterThanOrEqual(12);
  });

  it('exports the newest version; importing it back makes the next version crews then read', async () => {
    const exported = await call('GET', exportUrl(STANDARD_SET_NAME), admin);
    expect(exported.statusCode).toBe(200);
    const file = ComplaintSetExport.parse(exported.json());
    expect(file.version).toBe(2);
    const crewBefore = await call(
      'GET',
      `${routes.complaintSets.path}?name=${encodeURIComponent(STANDARD_SET_NAME)}&firstOccurrenceOnly=true`,
      medic2,
    );

    const edited = {
      ...file,
      complaints: file.complaints.map((c) => (c.name === 'Stroke' ? { ...c, name: 'Stroke / CVA' } : c)),
    };
    const res = await call('POST', IMPORT, admin, edited);
    expect(res.statusCode, res.body).toBe(201);
    expect(ComplaintSetImportResponse.parse(res.json())).toMatchObject({
      name: STANDARD_SET_NAME,
      version: 3,
      replaced: true,
      complaintCount: file.complaints.length,
    });

    const crew = await call(
      'GET',
      `${routes.complaintSets.path}?name=${encodeURIComponent(STANDARD_SET_NAME)}&firstOccurrenceOnly=true`,
      medic2,
    );
    expect(crew.headers.etag).not.toBe(crewBefore.headers.etag);
    const [newest] = ComplaintSetsResponse.parse(crew.json());
    expect(newest!.version).toBe(3);
    expect(newest!.complaints.map((c) => c.name)).toContain('Stroke / CVA');

    const [entry] = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity_type', '=', 'complaintSet')
      .where('entity_id', '=', STANDARD_SET_NAME)
      .execute();
    expect(entry).toMatchObject({ action: 'complaintSet.import', actor_id: IDS.users.admin });
    expect(entry!.summary).toMatch(/version 3 .* replacing version 2/);
    expect(JSON.parse(entry!.after!).complaints).toContain('Stroke / CVA');
  });

  it('imports a new set under a new name; concurrent imports of one name each get their own version', async () => {
    const file = ComplaintSetExport.parse((await call('GET', exportUrl(HILLTOP_SET_NAME), admin)).json());
    const name = 'Metro Protocols 2027';
    const first = ComplaintSetImportResponse.parse(
      (await call('POST', IMPORT, admin, { ...file, name, version: undefined })).json(),
    );
    expect(first).toMatchObject({ name, version: 1, replaced: false });
    const results = await Promise.all([1, 2, 3].map(() => call('POST', IMPORT, admin, { ...file, name })));
    // Each either made a version or was told to try again (never a 500, never a half set).
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    const made = results.filter((r) => r.statusCode === 201).length;
    expect(await versions(name)).toEqual(Array.from({ length: 1 + made }, (_, i) => i + 1));
  });

  it('names every bad entry; nothing is written', async () => {
    const file = ComplaintSetExport.parse((await call('GET', exportUrl(HILLTOP_SET_NAME), admin)).json());
    const complaints = structuredClone(file.complaints);
    const dupId = complaints[0]!.sections[0]!.tags[0]!.id;
    complaints[3]!.sections[1]!.tags[0]!.id = dupId;
    const res = await call('POST', IMPORT, admin, { name: HILLTOP_SET_NAME, complaints });
    expect(expectClientError(res, 400).message).toBe(`complaints[3].sections[1].tags[0].id: duplicate id "${dupId}"`);

    const broken = structuredClone(file.complaints);
    broken[1]!.color = 'red';
    (broken[2] as { priority: number }).priority = 7;
    delete (broken[0]!.sections[0]!.tags[0] as { name?: string }).name;
    const many = expectClientError(
      await call('POST', IMPORT, admin, { name: HILLTOP_SET_NAME, complaints: broken }),
      400,
    );
    expect(many.message).toContain('complaints[1].color: a colour must be #RRGGBB');
    expect(many.message).toContain('complaints[2].priority');
    expect(many.message).toContain('complaints[0].sections[0].tags[0].name: name is required');

    expect(expectClientError(await call('POST', IMPORT, admin, { name: 'X', complaints: [] }), 400).message).toBe(
      'complaints: a complaint set needs at least one complaint',
    );
    expect(expectClientError(await call('POST', IMPORT, admin, [1, 2]), 400).message).toMatch(
      /must be a complaint set/,
    );
    expect(expectClientError(await call('POST', IMPORT, admin, { complaints: file.complaints }), 400).message).toBe(
      'name: name is required',
    );
    expect(await versions(HILLTOP_SET_NAME)).toEqual([1]);
    expectClientError(await call('GET', exportUrl('No Such Set'), admin), 404);
    expectClientError(await call('GET', routes.adminExportComplaintSet.path, admin), 400);
  });
});
