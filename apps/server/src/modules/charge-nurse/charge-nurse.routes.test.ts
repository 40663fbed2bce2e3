/**
 * Charge nurses through the API (issue 15 item 3, decision 0038): an org admin designates them among
 * the hospital's ED staff (bad input named); a truck waiting past the threshold alerts them — their user
 * channel and Web Push — once per case and arrival, with the clock moved by hand; other ED staff are not
 * alerted; the alert leaves their list when the hand-over is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, ChargeNursesResponse, OffloadAlertsResponse, routes, type RouteName } from '@inbound/contract';
import type { PushRequest } from '../push/push.service.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  addUser,
  published,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  signInAll,
  startCase,
} from '../../test/crew-api.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const path = (name: RouteName, params: Record<string, string> = {}) => buildPath(routes[name].path, params);

describe('charge nurses', () => {
  let t: TestApp;
  const pushes: PushRequest[] = [];
  let admin: string, ed1: string, medic1: string, charge: string;
  let chargeId: string;

  const setList = (token: string, body: unknown, hospitalId: string = RIVERSIDE) =>
    send(t, 'PUT', path('setChargeNurses', { id: hospitalId }), token, { body, key: null });
  const mine = async (token: string) =>
    OffloadAlertsResponse.parse((await send(t, 'GET', path('myOffloadAlerts'), token, { key: null })).json()).data;

  /** What was published on a user's channel (published after the tick, not awaited by it): poll. */
  async function alertsOf(userId: string, count: number) {
    let alerts = await published(t, `user:${userId}`, 'offload.alert');
    for (let i = 0; i < 50 && alerts.length < count; i++) {
      await new Promise((r) => setTimeout(r, 20));
      alerts = await published(t, `user:${userId}`, 'offload.alert');
    }
    return alerts;
  }

  async function arrivedCase(): Promise<string> {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    const res = await send(t, 'POST', path('markArrived', { id: RIVERSIDE, caseId: id }), ed1);
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp({
      push: {
        allowAnyEndpoint: true,
        transport: (request) => {
          pushes.push(request);
          return Promise.resolve({ status: 201 });
        },
      },
    });
    chargeId = await addUser(t, 'chargenurse', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    await addUser(t, 'stmarysnurse', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [admin, ed1, medic1, charge] = await signInAll(t, ['admin', 'ed1', 'medic1', 'chargenurse']);
    const subscribed = await send(t, 'POST', path('pushSubscribe'), charge, {
      key: null,
      body: {
        registrationToken: {
          endpoint: 'http://push.test/chargenurse',
          keys: {
            p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
            auth: 'BTBZMqHH6r4Tts7J_aSIgg',
          },
        },
        topic: `user-${chargeId}`,
      },
    });
    expect(subscribed.statusCode).toBe(204);
  });
  afterAll(() => t.close());

  it('lets an org admin designate charge nurses among the ED staff, and names the field of bad input', async () => {
    const res = await setList(admin, { userIds: [chargeId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(ChargeNursesResponse.parse(res.json()).chargeNurses).toEqual([{ userId: chargeId, name: 'chargenurse' }]);
    // ED staff read the list (who their charge nurses are) but may not change it.
    const read = ChargeNursesResponse.parse(
      (await send(t, 'GET', path('chargeNurses', { id: RIVERSIDE }), ed1, { key: null })).json(),
    );
    expect(read.chargeNurses.map((c) => c.userId)).toEqual([chargeId]);
    expect(read.staff.map((s) => s.userId)).toContain(IDS.users.ed1);
    expect((await setList(ed1, { userIds: [IDS.users.ed1] })).statusCode).toBe(403);

    expect(expectClientError(await setList(admin, { userIds: 'everyone' }), 400).message).toMatch(/userIds/);
    expect(expectClientError(await setList(admin, { userIds: [chargeId, chargeId] }), 400).message).toMatch(
      /userIds: a person is listed twice/,
    );
    expect(expectClientError(await setList(admin, { userIds: ['user-stmarysnurse'] }), 400).message).toMatch(
      /^userIds: .*not on this hospital's ED staff list/,
    );
    expect((await setList(admin, { userIds: [] }, 'no-such-hospital')).statusCode).toBe(404);
    // The refused changes left the list as it was.
    const after = ChargeNursesResponse.parse(
      (await send(t, 'GET', path('chargeNurses', { id: RIVERSIDE }), admin, { key: null })).json(),
    );
    expect(after.chargeNurses.map((c) => c.userId)).toEqual([chargeId]);
  });

  it('alerts the charge nurses once when a truck waits past the threshold, and nobody else', async () => {
    const caseId = await arrivedCase();
    t.clock.advance(29 * 60_000);
    await t.app.offloadAlertTick();
    expect(await published(t, `user:${chargeId}`, 'offload.alert')).toHaveLength(0);

    t.clock.advance(2 * 60_000); // 31 min at the door: over the default 30
    expect(await t.app.offloadAlertTick()).toBe(1);
    const alerts = await alertsOf(chargeId, 1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.data).toMatchObject({
      caseId,
      hospitalName: 'Riverside Regional Medical Center',
      truckName: expect.any(String),
      thresholdMinutes: 30,
    });
    // The truck, the case number and the hospital: nothing of the patient travels with the alert.
    expect(Object.keys(alerts[0]?.data as object).sort()).toEqual([
      'alertedAt',
      'arrivedAt',
      'caseId',
      'caseNumber',
      'hospitalId',
      'hospitalName',
      'thresholdMinutes',
      'truckName',
    ]);
    for (let i = 0; i < 100 && pushes.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pushes.map((p) => p.endpoint)).toEqual(['http://push.test/chargenurse']);

    // Later ticks, and the next minutes over the threshold: no second alert for this arrival.
    t.clock.advance(5 * 60_000);
    expect(await t.app.offloadAlertTick()).toBe(0);
    expect(await alertsOf(chargeId, 2)).toHaveLength(1);
    expect(await alertsOf(IDS.users.ed1, 1)).toHaveLength(0);

    expect((await mine(charge)).map((a) => a.caseId)).toEqual([caseId]);
    expect(await mine(ed1)).toEqual([]);
    // The hand-over ends the wait: the alert leaves the charge nurse's list.
    expect((await send(t, 'POST', path('acceptHandoff', { id: RIVERSIDE, caseId }), ed1)).statusCode).toBe(200);
    expect(await mine(charge)).toEqual([]);
  });

  it('alerts nobody (and records nothing) at a hospital without a charge nurse', async () => {
    expect((await setList(admin, { userIds: [] })).statusCode).toBe(200);
    await arrivedCase();
    t.clock.advance(31 * 60_000);
    expect(await t.app.offloadAlertTick()).toBe(0);
    expect(await t.database.db.selectFrom('offload_alerts').select('case_id').execute()).toHaveLength(1);
  });
});
