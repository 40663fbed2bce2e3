/**
 * Team activation through the API (issue 15 item 1): an admin defines a team, the destination ED
 * activates it for a case, members are alerted on their user channel and by Web Push, acknowledge,
 * the crew reads who acknowledged; re-alerts every 2 min and the escalation to backups at 20 min with
 * the clock moved by hand; stand down ends it; every step is a case event on the case channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVATION_REALERT_MS,
  ActivationsResponse,
  buildPath,
  HospitalTeam,
  PushPayload,
  routes,
  TeamActivation,
  TeamsResponse,
  type RouteName,
} from '@inbound/contract';
import type { PushRequest } from '../push/push.service.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
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

describe('team activation', () => {
  let t: TestApp;
  const pushes: PushRequest[] = [];
  let admin: string, ed1: string, medic1: string, neuro: string, radio: string, backupDoc: string, outsider: string;
  let caseId: string;
  let team: HospitalTeam;
  let activation: TeamActivation;

  const subscribe = (token: string, userId: string, name: string) =>
    send(t, 'POST', path('pushSubscribe'), token, {
      key: null,
      body: {
        registrationToken: {
          endpoint: `http://push.test/${name}`,
          keys: {
            p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
            auth: 'BTBZMqHH6r4Tts7J_aSIgg',
          },
        },
        topic: `user-${userId}`,
      },
    });

  async function pushedTo(count: number): Promise<string[]> {
    for (let i = 0; i < 100 && pushes.length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return pushes.map((p) => p.endpoint.split('/').pop() ?? '');
  }

  /** The case's announced team events, once the outbox has relayed at least `count` of them. */
  async function caseEventTypes(count: number): Promise<string[]> {
    let types: string[] = [];
    for (let i = 0; i < 100; i++) {
      types = (await published(t, `case:${caseId}`, 'case.updated'))
        .map((e) => (e.data as { event: { type: string } }).event.type)
        .filter((type) => type.startsWith('team'));
      if (types.length >= count) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return types;
  }

  /** What was published on a user's channel, once at least `count` alerts are there. */
  async function alertsOf(userId: string, count: number) {
    let alerts = await published(t, `user:${userId}`, 'team.alert');
    for (let i = 0; i < 100 && alerts.length < count; i++) {
      await new Promise((r) => setTimeout(r, 20));
      alerts = await published(t, `user:${userId}`, 'team.alert');
    }
    return alerts;
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
    const neuroId = await addUser(t, 'neuro', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    const radioId = await addUser(t, 'radio', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    const backupId = await addUser(t, 'backupdoc', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    await addUser(t, 'outsider', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [admin, ed1, medic1, neuro, radio, backupDoc, outsider] = await signInAll(t, [
      'admin',
      'ed1',
      'medic1',
      'neuro',
      'radio',
      'backupdoc',
      'outsider',
    ]);
    for (const [token, id, name] of [
      [neuro, neuroId, 'neuro'],
      [radio, radioId, 'radio'],
      [backupDoc, backupId, 'backupdoc'],
    ] as const) {
      expect((await subscribe(token, id, name)).statusCode).toBe(204);
    }
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, RIVERSIDE);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets an org admin define a team of ED staff members, and refuses bad teams with the field named', async () => {
    const body = {
      kind: 'stroke',
      name: 'Stroke',
      members: [
        { userId: 'user-neuro', backup: false },
        { userId: 'user-radio', backup: false },
        { userId: 'user-backupdoc', backup: true },
      ],
    };
    expect((await send(t, 'POST', path('createTeam', { id: RIVERSIDE }), ed1, { body })).statusCode).toBe(403);
    const bad = [
      { ...body, kind: 'cardio' },
      { ...body, name: '' },
      { ...body, members: [] },
      { ...body, members: [body.members[0], body.members[0]] },
      { ...body, members: [{ userId: 'user-outsider', backup: false }] },
      { ...body, members: [{ userId: 'user-backupdoc', backup: true }] },
    ];
    for (const b of bad) {
      const res = await send(t, 'POST', path('createTeam', { id: RIVERSIDE }), admin, { body: b });
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as { message: string }).message).toMatch(/kind|name|members/);
    }
    const created = await send(t, 'POST', path('createTeam', { id: RIVERSIDE }), admin, { body });
    expect(created.statusCode, created.body).toBe(201);
    team = HospitalTeam.parse(created.json());
    expect(team.members.map((m) => [m.name, m.backup])).toEqual([
      ['neuro', false],
      ['radio', false],
      ['backupdoc', true],
    ]);
    const listed = TeamsResponse.parse((await send(t, 'GET', path('hospitalTeams', { id: RIVERSIDE }), ed1)).json());
    expect(listed.data.map((x) => x._id)).toEqual([team._id]);
    expect(listed.staff.map((s) => s.name)).toContain('neuro');
    expect((await send(t, 'GET', path('hospitalTeams', { id: RIVERSIDE }), outsider)).statusCode).toBe(403);
  });

  it('activates the team from the case: primaries alerted live and by push, a case event recorded; a repeat answers the first', async () => {
    const url = path('activateTeam', { id: RIVERSIDE, caseId });
    expect((await send(t, 'POST', url, ed1, { body: { teamId: 'no-such-team' } })).statusCode).toBe(404);
    expect((await send(t, 'POST', url, ed1, { body: {} })).statusCode).toBe(400);
    expect((await send(t, 'POST', url, outsider, { body: { teamId: team._id } })).statusCode).toBe(403);
    const res = await send(t, 'POST', url, ed1, { body: { teamId: team._id } });
    expect(res.statusCode, res.body).toBe(201);
    activation = TeamActivation.parse(res.json());
    expect(activation).toMatchObject({ status: 'active', teamName: 'Stroke', alertRounds: 1 });
    expect(activation.members.map((m) => m.alertedAt !== null)).toEqual([true, true, false]);
    const again = TeamActivation.parse((await send(t, 'POST', url, ed1, { body: { teamId: team._id } })).json());
    expect(again._id).toBe(activation._id);

    expect((await pushedTo(2)).sort()).toEqual(['neuro', 'radio']);
    const alerts = await alertsOf('user-neuro', 1);
    expect(alerts).toHaveLength(1);
    expect(await published(t, 'user:user-backupdoc', 'team.alert')).toHaveLength(0);
    const events = await caseEventTypes(1);
    expect(events.filter((e) => e === 'teamActivated')).toHaveLength(1);
    const mine = ActivationsResponse.parse((await send(t, 'GET', path('myActivations'), neuro)).json());
    expect(mine.data.map((a) => a._id)).toEqual([activation._id]);
    expect(ActivationsResponse.parse((await send(t, 'GET', path('myActivations'), backupDoc)).json()).data).toEqual([]);
  });

  it('takes a member\'s "on my way" once; others may not acknowledge; the crew sees who and when', async () => {
    const url = path('acknowledgeActivation', { activationId: activation._id });
    expect((await send(t, 'POST', url, outsider)).statusCode).toBe(403);
    expect((await send(t, 'POST', path('acknowledgeActivation', { activationId: 'nope' }), neuro)).statusCode).toBe(
      404,
    );
    t.clock.advance(30_000);
    const acked = TeamActivation.parse((await send(t, 'POST', url, neuro)).json());
    expect(acked.members[0]).toMatchObject({ name: 'neuro', acknowledgedAt: t.clock.now().toISOString() });
    await send(t, 'POST', url, neuro);
    const crew = ActivationsResponse.parse(
      (await send(t, 'GET', path('crewCaseActivations', { id: caseId }), medic1)).json(),
    );
    expect(crew.data[0]?.members.filter((m) => m.acknowledgedAt).map((m) => m.name)).toEqual(['neuro']);
    const types = await caseEventTypes(2);
    expect(types.filter((x) => x === 'teamAcknowledged')).toHaveLength(1);
    expect((await send(t, 'GET', path('crewCaseActivations', { id: caseId }), outsider)).statusCode).toBe(403);
  });

  it('re-alerts the unacknowledged member every 2 minutes and escalates to the backups at 20 minutes', async () => {
    pushes.length = 0;
    // Before the first 2 minutes are up: nothing.
    await t.app.teamActivationTick();
    expect(pushes).toHaveLength(0);
    t.clock.set(new Date(Date.parse(activation.activatedAt) + ACTIVATION_REALERT_MS));
    await t.app.teamActivationTick();
    expect(await pushedTo(1)).toEqual(['radio']);
    // The same round is not run twice.
    await t.app.teamActivationTick();
    expect(pushes).toHaveLength(1);
    for (let k = 2; k <= 9; k++) {
      t.clock.set(new Date(Date.parse(activation.activatedAt) + k * ACTIVATION_REALERT_MS));
      await t.app.teamActivationTick();
    }
    expect(await pushedTo(9)).toEqual(Array(9).fill('radio'));
    t.clock.set(new Date(Date.parse(activation.activatedAt) + 10 * ACTIVATION_REALERT_MS));
    await t.app.teamActivationTick();
    expect((await pushedTo(11)).slice(9).sort()).toEqual(['backupdoc', 'radio']);
    const now = ActivationsResponse.parse(
      (await send(t, 'GET', path('caseActivations', { id: RIVERSIDE, caseId }), ed1)).json(),
    ).data[0];
    expect(now?.escalatedAt).not.toBeNull();
    expect(now?.alertRounds).toBe(11);
    const types = await caseEventTypes(12);
    expect(types.filter((x) => x === 'teamRealerted')).toHaveLength(9);
    expect(types.filter((x) => x === 'teamEscalated')).toHaveLength(1);
    const alert = await alertsOf('user-backupdoc', 1);
    expect(alert.map((a) => (a.data as { reason: string }).reason)).toEqual(['escalated']);
    const payload = PushPayload.parse({
      type: 'team.alert',
      title: 'x',
      body: 'y',
      url: '/',
      caseId,
      transferId: null,
    });
    expect(payload.type).toBe('team.alert');
  });

  it('survives a restart: the schedule is in the database', async () => {
    const row = await t.database.db
      .selectFrom('team_activations')
      .select('next_alert_at')
      .where('id', '=', activation._id)
      .executeTakeFirstOrThrow();
    expect(row.next_alert_at).toBe(
      new Date(Date.parse(activation.activatedAt) + 11 * ACTIVATION_REALERT_MS).toISOString(),
    );
  });

  it('stands down: no more alerts, members no longer asked; only the destination ED may', async () => {
    const url = path('standDownActivation', { id: RIVERSIDE, caseId, activationId: activation._id });
    expect((await send(t, 'POST', url, medic1)).statusCode).toBe(403);
    expect(
      (await send(t, 'POST', path('standDownActivation', { id: RIVERSIDE, caseId, activationId: 'nope' }), ed1))
        .statusCode,
    ).toBe(404);
    const res = await send(t, 'POST', url, ed1);
    expect(res.statusCode, res.body).toBe(200);
    expect(TeamActivation.parse(res.json())).toMatchObject({ status: 'stoodDown', stoodDownByName: 'Taylor Brooks' });
    // Every alerted member's consoles hear it on their own channel and drop the bar (no push for it).
    const stoodDownTo = async (userId: string) => {
      for (let i = 0; i < 100; i++) {
        const found = (await published(t, `user:${userId}`, 'team.alert')).filter(
          (e) => (e.data as { reason: string }).reason === 'stoodDown',
        );
        if (found.length > 0) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      return [];
    };
    const dropped = await stoodDownTo('user-backupdoc');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.data).toMatchObject({ activation: { _id: activation._id, status: 'stoodDown' } });
    expect(await stoodDownTo('user-radio')).toHaveLength(1);
    // A repeat answers the same and tells no one again.
    expect((await send(t, 'POST', url, ed1)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await stoodDownTo('user-backupdoc')).toHaveLength(1);
    pushes.length = 0;
    t.clock.advance(10 * ACTIVATION_REALERT_MS);
    await t.app.teamActivationTick();
    await new Promise((r) => setTimeout(r, 50));
    expect(pushes).toHaveLength(0);
    expect(ActivationsResponse.parse((await send(t, 'GET', path('myActivations'), radio)).json()).data).toEqual([]);
    expect(
      (await send(t, 'POST', path('acknowledgeActivation', { activationId: activation._id }), radio)).statusCode,
    ).toBe(409);
  });
});
