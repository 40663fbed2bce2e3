/**
 * Hospital administration on SQLite and PostgreSQL: authorisation matrix, validation naming the field,
 * generated status channel, audit rows, and crews/ED staff reading the change at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminHospital,
  AdminHospitalsResponse,
  buildPath,
  Hospital,
  HOSPITAL_FEATURES,
  routes,
  Team,
  type AdminCreateHospitalBody,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { send, signInAll, type Method } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;
const hospitalPath = (id: string) => buildPath(routes.adminHospital.path, { id });

const newHospital = (over: Partial<AdminCreateHospitalBody> = {}): AdminCreateHospitalBody => ({
  name: 'Northgate Medical Center',
  nonTwiage: false,
  edPhoneNumbers: [{ name: 'ED Charge Nurse', phoneNumber: '+1 (555) 010-9999' }],
  supportedFeatures: [{ name: 'liveConsult', enabled: true }],
  location: { latitude: 41.55, longitude: -81.6 },
  ...over,
});

describe.each(dialects)('hospital administration on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let ed1: string;
  let medic1: string;
  let medic2: string;
  const call = (method: Method, url: string, token: string | null, body?: unknown) =>
    send(t, method, url, token, { body, key: null });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [admin, ed1, medic1, medic2] = await signInAll(t, ['admin', 'ed1', 'medic1', 'medic2']);
  });
  afterAll(() => t.close());

  it('is for organisation admins only: 401 without a token, 403 for ED staff (even of that hospital) and crews', async () => {
    const calls: [Method, string, unknown][] = [
      ['GET', routes.adminHospitals.path, undefined],
      ['GET', hospitalPath(RIVERSIDE), undefined],
      ['POST', routes.adminCreateHospital.path, newHospital()],
      ['PATCH', hospitalPath(RIVERSIDE), { name: 'X' }],
    ];
    for (const [method, url, body] of calls) {
      expectClientError(await call(method, url, null, body), 401);
      for (const token of [ed1, medic1, medic2]) expectClientError(await call(method, url, token, body), 403);
    }
  });

  it('lists hospitals with every §3 feature and the agencies that have them', async () => {
    const { hospitals } = AdminHospitalsResponse.parse((await call('GET', routes.adminHospitals.path, admin)).json());
    expect(hospitals).toHaveLength(5);
    const riverside = hospitals.find((h) => h.id === RIVERSIDE)!;
    expect(riverside.supportedFeatures.map((f) => f.name)).toEqual([...HOSPITAL_FEATURES]);
    expect(riverside.agencyIds).toContain(IDS.agencies.riverside);
    expect(riverside.statusChannelId).toBe(`hospital-status:${RIVERSIDE}`);
    expectClientError(await call('GET', hospitalPath('hospital-nope'), admin), 404);
  });

  it('creates a hospital with a generated status channel, audited', async () => {
    const res = await call('POST', routes.adminCreateHospital.path, admin, newHospital());
    expect(res.statusCode, res.body).toBe(201);
    const created = AdminHospital.parse(res.json());
    expect(created.statusChannelId).toBe(`hospital-status:${created.id}`);
    expect(created.supportedFeatures).toEqual(
      HOSPITAL_FEATURES.map((name) => ({ name, enabled: name === 'liveConsult' })),
    );
    expect(created.agencyIds).toEqual([]);
    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity_id', '=', created.id)
      .execute();
    expect(audit.map((a) => [a.action, a.entity_type, a.actor_id])).toEqual([
      ['hospital.create', 'hospital', IDS.users.admin],
    ]);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const count = async () => (await t.database.db.selectFrom('hospitals').select('id').execute()).length;
    const before = await count();
    const cases: [unknown, RegExp][] = [
      [
        newHospital({ edPhoneNumbers: [{ name: 'ED', phoneNumber: 'call me' }] }),
        /body\.edPhoneNumbers\.0\.phoneNumber: phoneNumber must be a phone number/,
      ],
      [newHospital({ edPhoneNumbers: [{ name: 'ED', phoneNumber: '12' }] }), /7 to 15 digits/],
      [
        newHospital({
          edPhoneNumbers: [
            { name: 'ED', phoneNumber: '+1-555-0100' },
            { name: 'ed', phoneNumber: '+1-555-0101' },
          ],
        }),
        /body\.edPhoneNumbers\.1\.name: duplicate phone name "ed"/,
      ],
      [
        { ...newHospital(), supportedFeatures: [{ name: 'teleport', enabled: true }] },
        /body\.supportedFeatures\.0\.name/,
      ],
      [newHospital({ location: { latitude: 123, longitude: 0 } }), /body\.location\.latitude/],
      [{ ...newHospital(), nonTwiage: 'yes' }, /body\.nonTwiage: nonTwiage must be true or false/],
      [{ ...newHospital(), name: '' }, /body\.name: name is required/],
    ];
    for (const [body, message] of cases) {
      expect(expectClientError(await call('POST', routes.adminCreateHospital.path, admin, body), 400).message).toMatch(
        message,
      );
    }
    expect(await count()).toBe(before);
    expectClientError(await call('PATCH', hospitalPath('hospital-nope'), admin, { name: 'X' }), 404);
    expectClientError(await call('PATCH', hospitalPath(RIVERSIDE), admin, {}), 400);
  });

  it('edits ED phones, features, nonTwiage and location; crews and ED staff read the change at once', async () => {
    const teamUrl = buildPath(routes.team.path, { id: IDS.agencies.riverside });
    const etag = (await call('GET', teamUrl, medic2)).headers.etag as string;
    const res = await call('PATCH', hospitalPath(RIVERSIDE), admin, {
      edPhoneNumbers: [{ name: 'Resus Bay', phoneNumber: '+1-555-0199' }],
      supportedFeatures: [{ name: 'emsFeedback', enabled: true }],
      location: { latitude: 41.5, longitude: -81.7 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = AdminHospital.parse(res.json());
    expect(edited.name).toBe('Riverside Regional Medical Center');
    expect(edited.supportedFeatures.filter((f) => f.enabled).map((f) => f.name)).toEqual(['emsFeedback']);

    const team = await call('GET', teamUrl, medic2);
    expect(team.headers.etag).not.toBe(etag);
    const inTeam = Team.parse(team.json()).hospitals.find((h) => h.id === RIVERSIDE)!;
    expect(inTeam.edPhoneNumbers).toEqual([{ name: 'Resus Bay', phoneNumber: '+1-555-0199' }]);
    expect(inTeam.location).toEqual({ latitude: 41.5, longitude: -81.7 });
    const asEd = Hospital.parse((await call('GET', buildPath(routes.hospital.path, { id: RIVERSIDE }), ed1)).json());
    expect(asEd.supportedFeatures.find((f) => f.name === 'caseRequiresPtNameAndDOB')?.enabled).toBe(false);

    // Not on the platform: crews still see it (and its phone), the ED board is closed to it.
    AdminHospital.parse((await call('PATCH', hospitalPath(RIVERSIDE), admin, { nonTwiage: true })).json());
    expect(
      Hospital.parse((await call('GET', buildPath(routes.hospital.path, { id: RIVERSIDE }), medic2)).json()).nonTwiage,
    ).toBe(true);
    expectClientError(await call('GET', `/v4/hospitals/${RIVERSIDE}/inbound`, ed1), 403);
    AdminHospital.parse(
      (await call('PATCH', hospitalPath(RIVERSIDE), admin, { nonTwiage: false, location: null })).json(),
    );
    expect((await call('GET', `/v4/hospitals/${RIVERSIDE}/inbound`, ed1)).statusCode).toBe(200);

    const updates = await t.database.db
      .selectFrom('admin_audit')
      .select(['summary', 'before', 'after'])
      .where('entity_id', '=', RIVERSIDE)
      .where('action', '=', 'hospital.update')
      .execute();
    expect(updates).toHaveLength(3);
    const first = updates.find((u) => u.summary.includes('edPhoneNumbers'))!;
    expect(first.summary).toBe(
      'Updated hospital Riverside Regional Medical Center: edPhoneNumbers, supportedFeatures, location',
    );
    expect(JSON.parse(first.before!).edPhoneNumbers).toHaveLength(3);
    expect(JSON.parse(first.after!).edPhoneNumbers).toEqual([{ name: 'Resus Bay', phoneNumber: '+1-555-0199' }]);
  });
});
