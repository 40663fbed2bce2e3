import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AcknowledgeResponse,
  BoardCaseDetail,
  BoardResponse,
  buildPath,
  Case,
  ChatMessage,
  HospitalCaseCard,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  addUser,
  LAKESIDE_TRUCK,
  published,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  signInAll,
  startCase,
} from '../../test/crew-api.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;
const LKW_TAG = 'stroke.onset.last-known-well';
const LKW = '2026-11-21T11:40:00.000Z';

const boardPath = (id: string) => buildPath(routes.inboundBoard.path, { id });
const detailPath = (id: string, caseId: string) => buildPath(routes.inboundCase.path, { id, caseId });
const ackPath = (id: string, caseId: string) => buildPath(routes.acknowledgeCase.path, { id, caseId });

describe('inbound board routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let admin: string;
  let edStMarys: string;
  let strokeId: string;
  let otherHospitalCase: string;

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic1, medic3, ed1, admin, edStMarys] = await signInAll(t, ['medic1', 'medic3', 'ed1', 'admin', 'edstmarys']);
    strokeId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, strokeId, RIVERSIDE);
    const patch = (body: object) => send(t, 'PATCH', `/v4/twiageCases/${strokeId}`, medic1, { body });
    expect((await patch({ complaint: 'stroke' })).statusCode).toBe(200);
    expect((await patch({ age: 67, agePeriod: 3 })).statusCode).toBe(200);
    expect((await patch({ gender: 'F' })).statusCode).toBe(200);
    expect((await send(t, 'POST', `/v4/twiageCases/${strokeId}/tags?tagId=${LKW_TAG}`, medic1)).statusCode).toBe(200);
    for (const value of ['2026-11-21T11:30:00.000Z', LKW]) {
      const res = await send(t, 'PATCH', `/v4/twiageCases/${strokeId}/tags/${LKW_TAG}/values`, medic1, {
        body: { fields: [{ key: 'lastKnownWell', value, name: 'Last Known Well', type: 'datetime' }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const [latitude, longitude] of [
      [41.45, -81.75],
      [41.47, -81.72],
    ]) {
      const res = await send(t, 'POST', `/v4/twiageCases/${strokeId}/locationUpdates`, medic1, {
        body: { latitude, longitude },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    otherHospitalCase = (await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK)).id;
    await setDestination(t, medic3, otherHospitalCase, ST_MARYS);
  });
  afterAll(() => t.close());

  const audits = (caseId: string) =>
    t.database.db.selectFrom('case_read_audit').selectAll().where('case_id', '=', caseId).orderBy('read_at').execute();

  it('shows the hospital its open inbound cases with what a card needs, and never another hospital’s', async () => {
    const res = await send(t, 'GET', boardPath(RIVERSIDE), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const board = BoardResponse.parse(res.json());
    expect(board.hospital).toMatchObject({ id: RIVERSIDE, name: 'Riverside Regional Medical Center' });
    expect(board.hospital.location).not.toBeNull();
    expect(board.open.map((c) => c.id)).toEqual([strokeId]);
    const [card] = board.open;
    expect(card).toMatchObject({
      complaint: { id: 'stroke', name: 'Stroke', priority: 1 },
      age: 67,
      gender: 'F',
      agency: { id: IDS.agencies.riverside, name: 'Riverside EMS' },
      truck: { id: RIVERSIDE_TRUCK, isALS: true },
      lastLocation: { latitude: 41.47, longitude: -81.72 },
      acknowledgement: null,
      unreadChat: 0,
      mediaCount: 0,
    });
    // The newest save of the tag's values, with the tag's name.
    expect(card?.tags).toEqual([
      expect.objectContaining({
        id: LKW_TAG,
        name: 'Last Known Well',
        fields: [expect.objectContaining({ value: LKW })],
      }),
    ]);
    const stMarys = BoardResponse.parse((await send(t, 'GET', boardPath(ST_MARYS), edStMarys, { key: null })).json());
    expect(stMarys.open.map((c) => c.id)).toEqual([otherHospitalCase]);
  });

  it('counts unread crew messages', async () => {
    const res = await send(t, 'POST', buildPath(routes.postChatMessage.path, { id: strokeId }), medic1, {
      body: {
        clientCreatedAt: '2026-11-21T11:59:30.000Z',
        deviceId: 'web_ems',
        message: 'LKW 11:40',
        timestamp: '2026-11-21T11:59:30.000Z',
        source: 'web_ems',
        senderOrganization: 'Riverside EMS',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const board = BoardResponse.parse((await send(t, 'GET', boardPath(RIVERSIDE), ed1, { key: null })).json());
    expect(board.open[0]?.unreadChat).toBe(1);
  });

  it('answers the case in full to its destination ED and audits every read', async () => {
    const before = (await audits(strokeId)).filter((a) => a.access === 'detail').length;
    const res = await send(t, 'GET', detailPath(RIVERSIDE, strokeId), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const detail = BoardCaseDetail.parse(res.json());
    expect(detail.timeline.map((e) => e.type)).toEqual([
      'caseStarted',
      'hospital',
      'complaint',
      'age',
      'gender',
      'tag',
      'dataEnabledTag',
      'dataEnabledTag',
      'location',
      'location',
    ]);
    expect(detail.timeline[0]?.actorName).toBe('Jordan Reyes');
    expect(detail.timeline[5]?.detail).toMatchObject({ tagId: LKW_TAG, tagName: 'Last Known Well' });
    expect(detail.tagHistory).toEqual([
      expect.objectContaining({ id: LKW_TAG, values: [expect.anything(), expect.anything()] }),
    ]);
    expect(detail.route.map((p) => [p.latitude, p.longitude])).toEqual([
      [41.45, -81.75],
      [41.47, -81.72],
    ]);
    await send(t, 'GET', detailPath(RIVERSIDE, strokeId), ed1, { key: null });
    const rows = (await audits(strokeId)).filter((a) => a.access === 'detail');
    expect(rows.length).toBe(before + 2);
    expect(rows.at(-1)).toMatchObject({ user_id: IDS.users.ed1, hospital_id: RIVERSIDE, case_id: strokeId });
  });

  it('audits board listings once per user and case per interval', async () => {
    const boardRows = async () =>
      (await audits(strokeId)).filter((a) => a.access === 'board' && a.user_id === IDS.users.ed1);
    const first = (await boardRows()).length;
    expect(first).toBe(1); // the first board read above; the second and third fell in the same interval
    t.clock.advance(6 * 60_000);
    await send(t, 'GET', boardPath(RIVERSIDE), ed1, { key: null });
    expect((await boardRows()).length).toBe(2);
  });

  it('acknowledges once, idempotently, records an event, publishes it, and the crew reads it', async () => {
    const first = await send(t, 'POST', ackPath(RIVERSIDE, strokeId), ed1, { key: null });
    expect(first.statusCode, first.body).toBe(200);
    const ack = AcknowledgeResponse.parse(first.json());
    expect(ack.acknowledgement.byName).toBe('Taylor Brooks');
    t.clock.advance(30_000);
    const again = AcknowledgeResponse.parse(
      (await send(t, 'POST', ackPath(RIVERSIDE, strokeId), ed1, { key: null })).json(),
    );
    expect(again).toEqual(ack);

    const events = await t.database.db
      .selectFrom('case_events')
      .select('type')
      .where('case_id', '=', strokeId)
      .where('type', '=', 'acknowledged')
      .execute();
    expect(events).toHaveLength(1);
    // Published after the answer (the fan-out never delays or fails a committed write).
    for (const channel of [`case:${strokeId}`, `hospital:${RIVERSIDE}`]) {
      await expect
        .poll(async () => (await published(t, channel, 'case.updated')).at(-1)?.data)
        .toMatchObject({ caseId: strokeId, event: { type: 'acknowledged' } });
    }

    const crewCase = Case.parse((await send(t, 'GET', `/v4/twiageCases/${strokeId}`, medic1, { key: null })).json());
    expect(crewCase).toMatchObject({
      acknowledgedBy: 'Taylor Brooks',
      acknowledgedByHospital: 'Riverside Regional Medical Center',
      acknowledgedAt: ack.acknowledgement.at,
    });
    const board = BoardResponse.parse((await send(t, 'GET', boardPath(RIVERSIDE), ed1, { key: null })).json());
    expect(board.open[0]?.acknowledgement).toEqual(ack.acknowledgement);
  });

  it('moves an arrived case to the history list and refuses to acknowledge a closed case', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    const arrive = await send(t, 'PATCH', `/v4/twiageCases/${id}`, medic1, {
      body: { arrivedAt: t.clock.now().toISOString() },
    });
    expect(arrive.statusCode, arrive.body).toBe(200);
    const board = BoardResponse.parse((await send(t, 'GET', boardPath(RIVERSIDE), ed1, { key: null })).json());
    expect(board.open.map((c) => c.id)).not.toContain(id);
    expect(board.history.map((c) => c.id)).toContain(id);
    expectClientError(await send(t, 'POST', ackPath(RIVERSIDE, id), ed1, { key: null }), 409);
  });

  it('clears the acknowledgement for the crew when the destination changes', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    expect((await send(t, 'POST', ackPath(RIVERSIDE, id), ed1, { key: null })).statusCode).toBe(200);
    await setDestination(t, medic1, id, ST_MARYS);
    const crewCase = Case.parse((await send(t, 'GET', `/v4/twiageCases/${id}`, medic1, { key: null })).json());
    expect(crewCase.acknowledgedBy).toBeNull();
    expectClientError(await send(t, 'GET', detailPath(RIVERSIDE, id), ed1, { key: null }), 404);
  });

  it('tells every console of the hospital the card as the unread count moves: a crew message, the ED reading it', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    const chat = async (token: string, message: string) => {
      const res = await send(t, 'POST', buildPath(routes.postChatMessage.path, { id }), token, {
        body: {
          clientCreatedAt: LKW,
          deviceId: 'web_ems',
          message,
          timestamp: LKW,
          source: 'web_ems',
          senderOrganization: 'ignored: the server says who speaks',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return ChatMessage.parse(res.json());
    };
    const receipt = async (token: string, messageId: string, kind: 'delivered' | 'read') => {
      const route = kind === 'read' ? routes.chatMessageRead : routes.chatMessageDelivered;
      const res = await send(t, 'POST', buildPath(route.path, { id, messageId }), token, { key: null });
      expect(res.statusCode, res.body).toBe(200);
    };
    // The case's cards on the hospital channel, oldest first (the channel carries the case's events too).
    const cards = async () =>
      (await published(t, `hospital:${RIVERSIDE}`, 'case.card'))
        .map((event) => HospitalCaseCard.parse(event.data))
        .filter((data) => data.caseId === id)
        .map((data) => data.card.unreadChat);

    const fromCrew = await chat(medic1, 'BP 180/100');
    expect(await cards()).toEqual([1]);
    // Neither a delivered receipt, nor the ED's own message, nor the crew reading it moves the count.
    await receipt(ed1, fromCrew._id, 'delivered');
    const fromEd = await chat(ed1, 'Stroke team paged');
    await receipt(medic1, fromEd._id, 'read');
    expect(await cards()).toEqual([1]);
    await receipt(ed1, fromCrew._id, 'read');
    expect(await cards()).toEqual([1, 0]);
    // The chat itself still goes to the case's channel only; the hospital channel got no chat message.
    expect(await published(t, `hospital:${RIVERSIDE}`, 'chat.message')).toEqual([]);
  });

  describe('authorisation matrix', () => {
    const calls = [
      { name: 'board', method: 'GET' as const, url: () => boardPath(RIVERSIDE) },
      { name: 'detail', method: 'GET' as const, url: () => detailPath(RIVERSIDE, strokeId) },
      { name: 'acknowledge', method: 'POST' as const, url: () => ackPath(RIVERSIDE, strokeId) },
    ];
    for (const call of calls) {
      it(`${call.name}: no token 401; crews, ED staff of another hospital and organisation admins 403`, async () => {
        const detailsBefore = (await audits(strokeId)).length;
        expectClientError(await send(t, call.method, call.url(), null, { key: null }), 401);
        expectClientError(await send(t, call.method, call.url(), 'not-a-token', { key: null }), 401);
        for (const token of [medic1, medic3, edStMarys, admin]) {
          expectClientError(await send(t, call.method, call.url(), token, { key: null }), 403);
        }
        // Refused reads leave no audit row (nothing was read).
        expect((await audits(strokeId)).length).toBe(detailsBefore);
      });
    }

    it('never answers another hospital’s case to ED staff, even through their own hospital’s path', async () => {
      expectClientError(await send(t, 'GET', detailPath(RIVERSIDE, otherHospitalCase), ed1, { key: null }), 404);
      expectClientError(await send(t, 'POST', ackPath(RIVERSIDE, otherHospitalCase), ed1, { key: null }), 404);
      expect(await audits(otherHospitalCase)).toEqual([
        expect.objectContaining({ user_id: 'user-edstmarys', access: 'board' }),
      ]);
    });

    it('bad ids are 4xx with a message', async () => {
      expectClientError(await send(t, 'GET', detailPath(RIVERSIDE, 'no-such-case'), ed1, { key: null }), 404);
      expectClientError(await send(t, 'GET', boardPath('x'.repeat(65)), ed1, { key: null }), 400);
      expectClientError(await send(t, 'POST', ackPath(RIVERSIDE, 'x'.repeat(65)), ed1, { key: null }), 400);
      expectClientError(await send(t, 'GET', boardPath('no-such-hospital'), ed1, { key: null }), 403);
    });
  });
});
