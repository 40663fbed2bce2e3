/**
 * Agency and truck administration on SQLite and PostgreSQL: authorisation matrix, validation naming the
 * field, no half-written agency, audit rows in the same transaction, and crews seeing the edit in the
 * unchanged GET /v4/emsAgencies/{id} shape (with a new ETag).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminAgenciesResponse,
  AdminAgency,
  AdminRemoveTruckResponse,
  AdminTruck,
  buildPath,
  routes,
  Team,
  TrucksResponse,
  type AdminCreateAgencyBody,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { STANDARD_SET_NAME } from '../../seed/complaint-sets.js';
import { expectClientError, createTestApp, type TestApp } from '../../test/app.js';
import { send, signInAll, startCase, type Method } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.agencies.riverside;
const agencyPath = (id: string) => buildPath(routes.adminAgency.path, { id });
const trucksPath = (id: string) => buildPath(routes.adminAddTruck.path, { id });
const truckPath = (id: string, truckId: string) => buildPath(routes.adminUpdateTruck.path, { id, truckId });

const newAgency = (over: Partial<AdminCreateAgencyBody> = {}): AdminCreateAgencyBody => ({
  name: 'Northside Ambulance',
  complaintSet: STANDARD_SET_NAME,
  maxCaseLength: 180,
  hospitalIds: [IDS.hospitals.stMarys, IDS.hospitals.riversideRegional],
  monitors: [{ name: 'LIFEPAK 35', type: 'lifepak' }],
  emtLevels: [{ name: 'EMT' }, { name: 'Paramedic' }],
  patientInfoForm: {
    title: 'Patient',
    subtitle: '',
    fields: [
      { key: 'firstName', name: 'First Name', type: 'text' },
      { key: 'dateOfBirth', name: 'DOB', type: 'date' },
    ],
  },
  ...over,
});

describe.each(dialects)('agency administration on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let ed1: string;
  let medic1: string;
  let medic2: string;
  const call = (method: Method, url: string, token: string | null, body?: unknown) =>
    send(t, method, url, token, { body, key: null });
  const auditRows = (entityId: string) =>
    t.database.db
      .selectFrom('admin_audit')
      .select(['action', 'actor_id', 'summary', 'before', 'after'])
      .where('entity_id', '=', entityId)
      .orderBy('at')
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [admin, ed1, medic1, medic2] = await signInAll(t, ['admin', 'ed1', 'medic1', 'medic2']);
  });
  afterAll(() => t.close());

  it('is for organisation admins only: 401 without a token, 403 for ED staff and crews (even team admins)', async () => {
    const calls: [Method, string, unknown][] = [
      ['GET', routes.adminAgencies.path, undefined],
      ['GET', agencyPath(RIVERSIDE), undefined],
      ['POST', routes.adminCreateAgency.path, newAgency()],
      ['PATCH', agencyPath(RIVERSIDE), { name: 'X' }],
      ['POST', trucksPath(RIVERSIDE), { name: 'Medic 9', isALS: true }],
      ['PATCH', truckPath(RIVERSIDE, 'truck-riverside-medic-1'), { name: 'X' }],
      ['DELETE', truckPath(RIVERSIDE, 'truck-riverside-medic-1'), undefined],
    ];
    for (const [method, url, body] of calls) {
      expectClientError(await call(method, url, null, body), 401);
      // medic1 administers the Hilltop team, which does not make them an organisation admin.
      for (const token of [ed1, medic1, medic2]) expectClientError(await call(method, url, token, body), 403);
    }
    expect(await t.database.db.selectFrom('admin_audit').select('id').execute()).toEqual([]);
  });

  it('lists every agency with its counts and reads one with everything it has', async () => {
    const list = AdminAgenciesResponse.parse((await call('GET', routes.adminAgencies.path, admin)).json());
    expect(list.agencies.map((a) => a.name)).toEqual([
      'Hilltop Volunteer Ambulance',
      'Lakeside Fire Rescue',
      'Riverside EMS',
    ]);
    expect(list.agencies.find((a) => a.id === RIVERSIDE)).toMatchObject({
      hospitalCount: 4,
      truckCount: 3,
      maxCaseLength: 240,
    });
    const riverside = AdminAgency.parse((await call('GET', agencyPath(RIVERSIDE), admin)).json());
    expect(riverside.hospitalIds[0]).toBe(IDS.hospitals.riversideRegional);
    expect(riverside.monitors).toHaveLength(2);
    expect(riverside.patientInfoForm?.id).toBe(IDS.patientInfoForm);
    expect(riverside.trucks.map((tr) => tr.name)).toEqual(['Medic 1', 'Medic 2', 'Ambulance 5']);
    expectClientError(await call('GET', agencyPath('agency-nope'), admin), 404);
  });

  it('creates an agency whole, audited, and crews of it read it in the team shape', async () => {
    const res = await call('POST', routes.adminCreateAgency.path, admin, newAgency());
    expect(res.statusCode, res.body).toBe(201);
    const created = AdminAgency.parse(res.json());
    expect(created).toMatchObject({ name: 'Northside Ambulance', maxCaseLength: 180, trucks: [] });
    expect(created.hospitalIds).toEqual([IDS.hospitals.stMarys, IDS.hospitals.riversideRegional]);
    const [entry] = await auditRows(created.id);
    expect(entry).toMatchObject({ action: 'agency.create', actor_id: IDS.users.admin });
    expect(entry!.summary).toContain('Northside Ambulance');
    // An org admin reads any team through the crew's own call: same shape as for crews.
    const team = Team.parse(
      (await call('GET', `${buildPath(routes.team.path, { id: created.id })}?fields=dynamicForms`, admin)).json(),
    );
    expect(team.hospitals.map((h) => h.id)).toEqual(created.hospitalIds);
    expect(team.patientInfoForm?.fields.map((f) => f.key)).toEqual(['firstName', 'dateOfBirth']);
    expect(team.dynamicForms[0]).toMatchObject({ type: 'patientInfo', title: 'Patient' });
    expect(team.codeVital.emtLevels).toEqual([{ name: 'EMT' }, { name: 'Paramedic' }]);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const before = (await t.database.db.selectFrom('agencies').select('id').execute()).length;
    const cases: [unknown, RegExp][] = [
      [newAgency({ maxCaseLength: 5 }), /body\.maxCaseLength: maxCaseLength must be at least 15 minutes/],
      [newAgency({ maxCaseLength: 99999 }), /body\.maxCaseLength: .*at most 1440/],
      [{ ...newAgency(), name: '   ' }, /body\.name: name is required/],
      [
        newAgency({ hospitalIds: [IDS.hospitals.stMarys, IDS.hospitals.stMarys] }),
        /body\.hospitalIds\.1: hospital "hospital-st-marys" is listed twice/,
      ],
      [
        newAgency({ hospitalIds: [IDS.hospitals.stMarys, 'hospital-nowhere'] }),
        /body\.hospitalIds\.1: no hospital has the id "hospital-nowhere"/,
      ],
      [newAgency({ complaintSet: 'No Such Set' }), /body\.complaintSet: no complaint set is named "No Such Set"/],
      [
        newAgency({
          monitors: [
            { name: 'A', type: 'zoll' },
            { name: 'a', type: 'zoll' },
          ],
        }),
        /body\.monitors\.1\.name: duplicate monitor name "a"/,
      ],
      [
        newAgency({ monitors: [{ id: 'monitor-riverside-zoll-medic-2', name: 'Stolen', type: 'zoll' }] }),
        /body\.monitors\.0\.id: .*another agency's monitor/,
      ],
      [
        newAgency({ patientInfoForm: { title: 'P', subtitle: '', fields: [{ key: '1x', name: 'X', type: 'text' }] } }),
        /body\.patientInfoForm\.fields\.0\.key: key must start with a letter/,
      ],
      [
        newAgency({
          patientInfoForm: {
            title: 'P',
            subtitle: '',
            fields: [
              { key: 'a', name: 'A', type: 'text' },
              { key: 'a', name: 'B', type: 'text' },
            ],
          },
        }),
        /body\.patientInfoForm\.fields\.1\.key: duplicate key "a"/,
      ],
      [{ name: 'Only a name' }, /body\.complaintSet: complaintSet is required/],
    ];
    for (const [body, message] of cases) {
      expect(expectClientError(await call('POST', routes.adminCreateAgency.path, admin, body), 400).message).toMatch(
        message,
      );
    }
    expect(expectClientError(await call('PATCH', agencyPath(RIVERSIDE), admin, {}), 400).message).toMatch(
      /at least one field/,
    );
    expectClientError(await call('PATCH', agencyPath('agency-nope'), admin, { name: 'X' }), 404);
    // A reference checked late (inside the transaction) rolls back the writes before it.
    expectClientError(
      await call('PATCH', agencyPath(RIVERSIDE), admin, { name: 'Renamed', hospitalIds: ['hospital-nowhere'] }),
      400,
    );
    expect((await t.database.db.selectFrom('agencies').select('id').execute()).length).toBe(before);
    expect((await call('GET', agencyPath(RIVERSIDE), admin)).json()).toMatchObject({ name: 'Riverside EMS' });
  });

  it('edits an agency; crews see it at their next read (new ETag), the shared form is copied, not changed for others', async () => {
    const teamUrl = `${buildPath(routes.team.path, { id: RIVERSIDE })}?fields=dynamicForms`;
    const first = await call('GET', teamUrl, medic2);
    const etag = first.headers.etag as string;

    const res = await call('PATCH', agencyPath(RIVERSIDE), admin, {
      name: 'Riverside EMS District',
      maxCaseLength: 300,
      hospitalIds: [IDS.hospitals.mercyGeneral, IDS.hospitals.riversideRegional],
      monitors: [
        { id: 'monitor-riverside-zoll-medic-2', name: 'ZOLL X Series — Medic 2', type: 'zoll' },
        { name: 'Corpuls3', type: 'corpuls' },
      ],
      emtLevels: [{ name: 'EMT' }, { name: 'Paramedic' }, { name: 'Critical Care' }],
      patientInfoForm: {
        title: 'Patient Info',
        subtitle: 'Name and DOB first',
        fields: [{ key: 'lastName', name: 'Last Name', type: 'text' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = AdminAgency.parse(res.json());
    expect(edited.patientInfoForm!.id).not.toBe(IDS.patientInfoForm);

    const again = await call('GET', teamUrl, medic2, undefined);
    expect(again.statusCode).toBe(200);
    expect(again.headers.etag).not.toBe(etag);
    const team = Team.parse(again.json());
    expect(team).toMatchObject({ name: 'Riverside EMS District', maxCaseLength: 300 });
    expect(team.hospitals.map((h) => h.id)).toEqual([IDS.hospitals.mercyGeneral, IDS.hospitals.riversideRegional]);
    expect(team.monitors.map((m) => m._id)[0]).toBe('monitor-riverside-zoll-medic-2');
    expect(team.monitors.map((m) => m.name)).toEqual(['ZOLL X Series — Medic 2', 'Corpuls3']);
    expect(team.patientInfoForm).toMatchObject({ subtitle: 'Name and DOB first', fields: [{ key: 'lastName' }] });
    expect(team.codeVital.emtLevels).toHaveLength(3);
    // Lakeside shared the demo form: untouched.
    const lakeside = Team.parse(
      (await call('GET', buildPath(routes.team.path, { id: IDS.agencies.lakeside }), medic1)).json(),
    );
    expect(lakeside.patientInfoForm?.id).toBe(IDS.patientInfoForm);
    expect(lakeside.patientInfoForm?.fields.length).toBeGreaterThan(1);

    const rows = await auditRows(RIVERSIDE);
    const update = rows.find((r) => r.action === 'agency.update')!;
    expect(update.action).toBe('agency.update');
    expect(update.summary).toMatch(/name, maxCaseLength, hospitalIds, monitors, emtLevels, patientInfoForm/);
    expect(JSON.parse(update.before!)).toMatchObject({ name: 'Riverside EMS', maxCaseLength: 240 });
    expect(JSON.parse(update.after!)).toMatchObject({ name: 'Riverside EMS District', maxCaseLength: 300 });

    // Removing the form: the team has none.
    AdminAgency.parse((await call('PATCH', agencyPath(RIVERSIDE), admin, { patientInfoForm: null })).json());
    expect(Team.parse((await call('GET', teamUrl, medic2)).json()).patientInfoForm).toBeNull();
  });

  it('adds, renames, switches and removes trucks; refuses a truck on an open case with 409', async () => {
    const added = await call('POST', trucksPath(RIVERSIDE), admin, { name: 'Medic 9', isALS: false });
    expect(added.statusCode, added.body).toBe(201);
    const truck = AdminTruck.parse(added.json());
    expectClientError(await call('POST', trucksPath(RIVERSIDE), admin, { name: 'medic 9', isALS: true }), 409);
    expect(expectClientError(await call('POST', trucksPath(RIVERSIDE), admin, { name: '' }), 400).message).toMatch(
      /body\.name/,
    );
    expectClientError(await call('POST', trucksPath('agency-nope'), admin, { name: 'A', isALS: true }), 404);

    const renamed = AdminTruck.parse(
      (await call('PATCH', truckPath(RIVERSIDE, truck.id), admin, { name: 'Medic 10', isALS: true })).json(),
    );
    expect(renamed).toEqual({ id: truck.id, name: 'Medic 10', isALS: true });
    expectClientError(await call('PATCH', truckPath(RIVERSIDE, truck.id), admin, { name: 'Medic 1' }), 409);
    expectClientError(await call('PATCH', truckPath(IDS.agencies.lakeside, truck.id), admin, { name: 'Z' }), 404);
    const crewTrucks = TrucksResponse.parse(
      (await call('GET', buildPath(routes.trucks.path, { id: RIVERSIDE }), medic2)).json(),
    );
    expect(crewTrucks.find((tr) => tr.id === truck.id)).toMatchObject({ name: 'Medic 10', isALS: true });

    // In use on an open case: refused, nothing changes.
    const { caseNumber } = await startCase(t, medic2, RIVERSIDE, truck.id);
    const refused = expectClientError(await call('DELETE', truckPath(RIVERSIDE, truck.id), admin), 409);
    expect(refused.message).toBe(`Medic 10 is on open case ${caseNumber}: remove it once that case is closed.`);
    // Once the case is closed, the truck is retired: past cases still name it, crews no longer see it.
    await t.database.db
      .updateTable('cases')
      .set({ closed_at: new Date().toISOString() })
      .where('truck_id', '=', truck.id)
      .execute();
    expect(
      AdminRemoveTruckResponse.parse((await call('DELETE', truckPath(RIVERSIDE, truck.id), admin)).json()),
    ).toEqual({
      id: truck.id,
      outcome: 'retired',
    });
    const afterRemoval = TrucksResponse.parse(
      (await call('GET', buildPath(routes.trucks.path, { id: RIVERSIDE }), medic2)).json(),
    );
    expect(afterRemoval.map((tr) => tr.id)).not.toContain(truck.id);
    expect(
      await t.database.db.selectFrom('trucks').select('retired_at').where('id', '=', truck.id).executeTakeFirst(),
    ).toMatchObject({
      retired_at: expect.any(String),
    });
    expectClientError(await call('DELETE', truckPath(RIVERSIDE, truck.id), admin), 404);

    // Never used: deleted outright.
    const spare = AdminTruck.parse(
      (await call('POST', trucksPath(RIVERSIDE), admin, { name: 'Spare', isALS: false })).json(),
    );
    expect(
      AdminRemoveTruckResponse.parse((await call('DELETE', truckPath(RIVERSIDE, spare.id), admin)).json()).outcome,
    ).toBe('deleted');
    expect(
      await t.database.db.selectFrom('trucks').select('id').where('id', '=', spare.id).executeTakeFirst(),
    ).toBeUndefined();

    // The test clock stands still, so the entries share a time: compare them as a set.
    const actions = (await auditRows(truck.id)).map((r) => r.action).sort();
    expect(actions).toEqual(['truck.create', 'truck.delete', 'truck.update']);
  });

  // PostgreSQL only: SQLite runs one write at a time, so a case cannot slip in between check and delete.
  it.skipIf(dialect !== 'postgres')(
    'a case put on the truck while its removal runs: 409 for the open case, not a 500',
    async () => {
      const spare = AdminTruck.parse(
        (await call('POST', trucksPath(RIVERSIDE), admin, { name: 'Race Spare', isALS: false })).json(),
      );
      const { id: caseId, caseNumber } = await startCase(t, medic2, RIVERSIDE, 'truck-riverside-medic-1');
      const answer = await t.database.db.connection().execute(async (conn) => {
        await sql`begin`.execute(conn);
        // Not yet committed: the removal's "used by a case?" check cannot see it and goes on to delete.
        await conn.updateTable('cases').set({ truck_id: spare.id }).where('id', '=', caseId).execute();
        const removal = call('DELETE', truckPath(RIVERSIDE, spare.id), admin);
        await new Promise((resolve) => setTimeout(resolve, 500)); // the delete now waits on the case's lock
        await sql`commit`.execute(conn);
        return removal;
      });
      const refused = expectClientError(answer, 409);
      expect(refused.message).toBe(`Race Spare is on open case ${caseNumber}: remove it once that case is closed.`);
      expect(
        await t.database.db.selectFrom('trucks').select('retired_at').where('id', '=', spare.id).executeTakeFirst(),
      ).toEqual({ retired_at: null });
    },
  );
});
