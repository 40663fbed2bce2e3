import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, HospitalStatus, HospitalStatusesResponse, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { addUser, published, send, signInAll } from '../../test/crew-api.js';

const statusesPath = (id: string) => buildPath(routes.setHospitalStatus.path, { id });
const statusPath = (id: string, statusId: string) => buildPath(routes.clearHospitalStatus.path, { id, statusId });
const HOSPITAL = IDS.hospitals.riversideRegional;

describe('setting hospital statuses', () => {
  let t: TestApp;
  let ed1: string;
  let admin: string;
  let medic1: string;
  let edStMarys: string;

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [ed1, admin, medic1, edStMarys] = await signInAll(t, ['ed1', 'admin', 'medic1', 'edstmarys']);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await send(t, 'POST', statusesPath(HOSPITAL), null, { body: {}, key: null }), 401);
    expectClientError(await send(t, 'DELETE', statusPath(HOSPITAL, 'x'), null, { key: null }), 401);
  });

  it('sets a critical status: listed first for the crews and published on hospital-status:{id}', async () => {
    t.clock.advance(60_000);
    const res = await send(t, 'POST', statusesPath(HOSPITAL), ed1, {
      body: { status: 'CT Scanner Down', priority: 'critical' },
      key: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    const set = HospitalStatus.parse(res.json());
    const list = HospitalStatusesResponse.parse(
      (await send(t, 'GET', buildPath(routes.hospitalStatuses.path, { id: HOSPITAL }), medic1, { key: null })).json(),
    );
    expect(list.activeStatuses.map((s) => [s.status, s.priority])).toEqual([
      ['CT Scanner Down', 'critical'],
      ['Cath Lab Delayed (30 min)', 'urgent'],
    ]);
    const live = await published(t, `hospital-status:${HOSPITAL}`, 'hospital.status');
    expect(HospitalStatusesResponse.parse(live.at(-1)?.data).activeStatuses[0]?._id).toBe(set._id);
  });

  it('clears a status (once), answering and publishing what stays active', async () => {
    const res = await send(t, 'DELETE', statusPath(HOSPITAL, 'status-riverside-cath-lab'), admin, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const left = HospitalStatusesResponse.parse(res.json());
    expect(left.activeStatuses.map((s) => s.status)).toEqual(['CT Scanner Down']);
    const live = await published(t, `hospital-status:${HOSPITAL}`, 'hospital.status');
    expect(HospitalStatusesResponse.parse(live.at(-1)?.data)).toEqual(left);
    expectClientError(
      await send(t, 'DELETE', statusPath(HOSPITAL, 'status-riverside-cath-lab'), admin, { key: null }),
      404,
    );
    // Another hospital's status is not found through this hospital.
    expectClientError(
      await send(t, 'DELETE', statusPath(HOSPITAL, 'status-st-marys-saturated'), ed1, { key: null }),
      404,
    );
  });

  it("refuses crews, another hospital's ED staff and bad input", async () => {
    const body = { status: 'Diversion', priority: 'urgent' };
    expectClientError(await send(t, 'POST', statusesPath(HOSPITAL), medic1, { body, key: null }), 403);
    expectClientError(await send(t, 'POST', statusesPath(HOSPITAL), edStMarys, { body, key: null }), 403);
    expectClientError(await send(t, 'DELETE', statusPath(HOSPITAL, 'x'), edStMarys, { key: null }), 403);
    expectClientError(await send(t, 'POST', statusesPath('hospital-none'), admin, { body, key: null }), 404);
    for (const bad of [{ status: ' ', priority: 'urgent' }, { status: 'x', priority: 'low' }, { status: 'x' }]) {
      expectClientError(await send(t, 'POST', statusesPath(HOSPITAL), ed1, { body: bad, key: null }), 400);
    }
  });
});
