import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, Hospital, HospitalStatusesResponse, routes } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';

const hospitalPath = (id: string) => buildPath(routes.hospital.path, { id });
const statusesPath = (id: string) => buildPath(routes.hospitalStatuses.path, { id });

describe('hospitals routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.get(hospitalPath(IDS.hospitals.mercyGeneral)), 401);
    expectClientError(await t.get(statusesPath(IDS.hospitals.mercyGeneral)), 401);
  });

  it('answers active statuses, critical first', async () => {
    const res = await t.get(statusesPath(IDS.hospitals.mercyGeneral), await t.signIn('medic2'));
    expect(res.statusCode).toBe(200);
    const body = HospitalStatusesResponse.parse(res.json());
    expect(body.hospitalId).toBe(IDS.hospitals.mercyGeneral);
    expect(body.activeStatuses.map((s) => [s.status, s.priority])).toEqual([
      ['CT Scanner Down', 'critical'],
      ['No Psychiatric Beds', 'urgent'],
    ]);
  });

  it('answers a hospital to crews that deliver there, its ED staff and org admins', async () => {
    const asMedic = Hospital.parse(
      (await t.get(hospitalPath(IDS.hospitals.riversideRegional), await t.signIn('medic1'))).json(),
    );
    expect(asMedic.name).toBe('Riverside Regional Medical Center');
    expect(asMedic.location).not.toBeNull();
    const ed1 = await t.signIn('ed1');
    expect((await t.get(hospitalPath(IDS.hospitals.riversideRegional), ed1)).statusCode).toBe(200);
    expect((await t.get(statusesPath(IDS.hospitals.riversideRegional), ed1)).statusCode).toBe(200);
    expect((await t.get(hospitalPath(IDS.hospitals.valleyCommunity), await t.signIn('admin'))).statusCode).toBe(200);
  });

  it('refuses everyone else with 403 and an unknown hospital with 404', async () => {
    const medic3 = await t.signIn('medic3');
    expectClientError(await t.get(hospitalPath(IDS.hospitals.riversideRegional), medic3), 403);
    expectClientError(await t.get(statusesPath(IDS.hospitals.mercyGeneral), medic3), 403);
    expect((await t.get(statusesPath(IDS.hospitals.stMarys), medic3)).statusCode).toBe(200);
    expectClientError(await t.get(statusesPath(IDS.hospitals.stMarys), await t.signIn('ed1')), 403);
    expectClientError(await t.get(statusesPath('hospital-nowhere'), medic3), 404);
    expectClientError(await t.get(hospitalPath('y'.repeat(100)), medic3), 400);
    expectClientError(await t.get(hospitalPath('y'.repeat(500)), medic3), 414);
  });
});
