import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSULT_EVENTS,
  CONSULT_PRESENCE_TIMEOUT_MS,
  CallResponse,
  ConsultResponse,
  ConsultRoomResponse,
  JoinConsultResponse,
  buildPath,
  callMessages,
  consultMessages,
  messages,
  routes,
} from '@inbound/contract';
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
const ST_MARYS = IDS.hospitals.stMarys;
const OFFER = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };

const roomPath = (id: string) => buildPath(routes.consultRoom.path, { id });
const presencePath = (consultId: string) => buildPath(routes.consultPresence.path, { consultId });
const signalPath = (consultId: string) => buildPath(routes.signalConsult.path, { consultId });
const leavePath = (consultId: string) => buildPath(routes.leaveConsult.path, { consultId });

describe('live consult routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let ed2: string;
  let ed3: string;
  let ed4: string;
  let edStMarys: string;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { ICE_SERVERS: '[{"urls":"stun:stun.example.org:3478"}]' } });
    for (const name of ['ed2', 'ed3', 'ed4']) await addUser(t, name, { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic1, medic3, ed1, ed2, ed3, ed4, edStMarys, admin] = await signInAll(t, [
      'medic1',
      'medic3',
      'ed1',
      'ed2',
      'ed3',
      'ed4',
      'edstmarys',
      'admin',
    ]);
  });
  afterAll(() => t.close());

  async function newCase(destination: string | null = RIVERSIDE) {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    if (destination) await setDestination(t, medic1, id, destination);
    return id;
  }
  const join = (token: string, caseId: string) => send(t, 'POST', routes.joinConsult.path, token, { body: { caseId } });
  const joined = async (token: string, caseId: string) => {
    const res = await join(token, caseId);
    expect(res.statusCode, res.body).toBe(201);
    return JoinConsultResponse.parse(res.json());
  };
  const leave = (token: string, consultId: string, participantId: string) =>
    send(t, 'POST', leavePath(consultId), token, { body: { participantId } });

  it('refuses bad input with a 4xx naming the field, and strangers with 401/403/404', async () => {
    const caseId = await newCase();
    const noBody = expectClientError(await send(t, 'POST', routes.joinConsult.path, medic1, { body: {} }), 400);
    expect(noBody.message).toContain('caseId');
    const long = await send(t, 'POST', routes.joinConsult.path, medic1, { body: { caseId: 'x'.repeat(65) } });
    expect(expectClientError(long, 400).message).toContain('caseId');
    expectClientError(await join(medic1, 'no-such-case'), 404);
    expectClientError(await join(medic3, caseId), 403);
    expectClientError(await join(edStMarys, caseId), 403);
    // The organisation admin reads no patient data: not the room either.
    expectClientError(await join(admin, caseId), 403);
    expectClientError(await send(t, 'GET', roomPath(caseId), null, { key: null }), 401);

    const { consult, participantId } = await joined(medic1, caseId);
    const noFrom = await send(t, 'POST', signalPath(consult.id), medic1, { body: { to: participantId } });
    expect(expectClientError(noFrom, 400).message).toContain('from');
    const hugeSdp = { type: 'offer', sdp: 'x'.repeat(16_001) };
    const huge = await send(t, 'POST', signalPath(consult.id), medic1, {
      body: { from: participantId, to: participantId, description: hugeSdp },
    });
    expect(expectClientError(huge, 400).message).toContain('sdp');
    const noPid = await send(t, 'POST', presencePath(consult.id), medic1, { body: {} });
    expect(expectClientError(noPid, 400).message).toContain('participantId');
    // Someone else's participant id: refused, even for a reader of the case.
    const ed = await joined(ed1, caseId);
    expect(expectClientError(await leave(ed1, consult.id, participantId), 403).message).toBe(
      consultMessages.notAParticipant,
    );
    expectClientError(await leave(medic3, consult.id, participantId), 403);
    await leave(ed1, consult.id, ed.participantId);
    await leave(medic1, consult.id, participantId);
  });

  it("tells the case's channel (the crew) when the hospital starts a consult, and when it ends", async () => {
    const caseId = await newCase();
    const physician = await joined(ed1, caseId);
    const onCase = (await published(t, `case:${caseId}`, CONSULT_EVENTS.updated)).map(
      (m) => ConsultResponse.parse(m.data).consult,
    );
    expect(onCase).toHaveLength(1);
    expect(onCase[0]).toMatchObject({ id: physician.consult.id, state: 'live', caseId });
    expect(onCase[0]!.participants.map((p) => p.side)).toEqual(['hospital']);
    // Another case's channel hears nothing of it.
    const other = await newCase();
    expect(await published(t, `case:${other}`, CONSULT_EVENTS.updated)).toEqual([]);

    await leave(ed1, physician.consult.id, physician.participantId);
    const last = (await published(t, `case:${caseId}`, CONSULT_EVENTS.updated)).at(-1);
    expect(ConsultResponse.parse(last?.data).consult.state).toBe('ended');
  });

  it('needs a destination that offers consults (spec §8 texts)', async () => {
    expect(expectClientError(await join(medic1, await newCase(null)), 409).message).toBe(
      messages.selectHospitalForLiveConsult,
    );
    const stMarysCase = await newCase(ST_MARYS);
    expect(expectClientError(await join(medic1, stMarysCase), 409).message).toBe(
      "St. Mary's Hospital does not support Live Consults.",
    );
    const room = ConsultRoomResponse.parse((await send(t, 'GET', roomPath(stMarysCase), medic1, { key: null })).json());
    expect(room).toEqual({ roomId: null, consult: null, available: false });
  });

  it('runs one room per case: crew and ED staff join, a fifth is refused, signals go between named participants, the last out records one liveconsult event', async () => {
    const caseId = await newCase();
    const crew = await joined(medic1, caseId);
    expect(crew.consult.participants.map((p) => p.side)).toEqual(['crew']);
    expect(crew.ice.iceServers[0]).toEqual({ urls: ['stun:stun.example.org:3478'] });
    const physician = await joined(ed1, caseId);
    const neurologist = await joined(ed2, caseId);
    // The same room for all: the first join started it.
    expect(physician.consult.id).toBe(crew.consult.id);
    expect(neurologist.consult.participants).toHaveLength(3);
    const room = ConsultRoomResponse.parse((await send(t, 'GET', roomPath(caseId), ed1, { key: null })).json());
    expect(room.roomId).toBe(crew.consult.id);
    expect(room.available).toBe(true);
    expect(room.consult?.participants.map((p) => p.side)).toEqual(['crew', 'hospital', 'hospital']);
    expect(await published(t, `hospital:${RIVERSIDE}`, CONSULT_EVENTS.updated)).not.toHaveLength(0);

    const fourth = await joined(ed3, caseId);
    expect(expectClientError(await join(ed4, caseId), 409).message).toBe(consultMessages.full);

    // Signals: from one's own participant to another's; the channel names both.
    const id = crew.consult.id;
    const offer = await send(t, 'POST', signalPath(id), ed2, {
      body: { from: neurologist.participantId, to: crew.participantId, description: OFFER },
    });
    expect(offer.statusCode, offer.body).toBe(204);
    const forged = await send(t, 'POST', signalPath(id), ed2, {
      body: { from: crew.participantId, to: physician.participantId, description: OFFER },
    });
    expect(expectClientError(forged, 403).message).toBe(consultMessages.notAParticipant);
    const signals = await published(t, `consult:${id}`, CONSULT_EVENTS.signal);
    expect(signals.map((s) => s.data)).toEqual([
      expect.objectContaining({ from: neurologist.participantId, to: crew.participantId }),
    ]);

    // One leaves: a place is free again; signals to them are refused.
    expect((await leave(ed3, id, fourth.participantId)).statusCode).toBe(200);
    expect((await leave(ed3, id, fourth.participantId)).statusCode).toBe(200); // idempotent
    const toGone = await send(t, 'POST', signalPath(id), medic1, {
      body: { from: crew.participantId, to: fourth.participantId, description: OFFER },
    });
    expectClientError(toGone, 409);
    const late = await joined(ed4, caseId);
    expect(late.consult.participants).toHaveLength(4);
    expect((await published(t, `consult:${id}`, CONSULT_EVENTS.left)).length).toBe(1);

    t.clock.advance(20_000);
    // The others are heard from; ed4's browser vanished: taken out when the room is next met.
    for (const [token, p] of [
      [medic1, crew],
      [ed1, physician],
      [ed2, neurologist],
    ] as const) {
      t.clock.advance(5_000);
      expect(
        (await send(t, 'POST', presencePath(id), token, { body: { participantId: p.participantId } })).statusCode,
      ).toBe(200);
    }
    t.clock.advance(CONSULT_PRESENCE_TIMEOUT_MS - 15_000);
    const seen = ConsultResponse.parse(
      (await send(t, 'POST', presencePath(id), medic1, { body: { participantId: crew.participantId } })).json(),
    );
    expect(seen.consult.participants.map((p) => p.id)).not.toContain(late.participantId);

    for (const [token, p] of [
      [ed2, neurologist],
      [ed1, physician],
      [medic1, crew],
    ] as const)
      expect((await leave(token, id, p.participantId)).statusCode).toBe(200);
    const events = await t.database.db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', caseId)
      .where('type', '=', 'liveconsult')
      .execute();
    expect(events).toHaveLength(1);
    const payload = JSON.parse(events[0]!.payload) as { durationSeconds: number; participants: unknown[] };
    expect(payload.participants).toHaveLength(5);
    expect(payload.durationSeconds).toBeGreaterThanOrEqual(20 + 15 + CONSULT_PRESENCE_TIMEOUT_MS / 1000 - 15);
    expect(events[0]!.actor_user_id).toBe(IDS.users.medic1);
    expect((await published(t, `consult:${id}`, CONSULT_EVENTS.ended)).length).toBe(1);
    expect(await published(t, `case:${caseId}`, 'case.updated')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          data: expect.objectContaining({ event: expect.objectContaining({ type: 'liveconsult' }) }),
        }),
      ]),
    );
    // The room is gone; a new join starts a new one.
    const room2 = ConsultRoomResponse.parse((await send(t, 'GET', roomPath(caseId), medic1, { key: null })).json());
    expect(room2.roomId).toBeNull();
    const next = await joined(ed1, caseId);
    expect(next.consult.id).not.toBe(id);
    await leave(ed1, next.consult.id, next.participantId);
  });

  it('excludes consults, voice calls and case transfers from each other (409 with the spec text)', async () => {
    const caseId = await newCase();
    const consult = await joined(ed1, caseId);
    // A call during a consult.
    expect(
      expectClientError(await send(t, 'POST', routes.startCall.path, medic1, { body: { caseId } }), 409).message,
    ).toBe(consultMessages.consultInProgress);
    // A transfer during a consult.
    const transfer = await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId } });
    expect(expectClientError(transfer, 409).message).toBe(callMessages.closeCallToTransfer);
    await leave(ed1, consult.consult.id, consult.participantId);

    // A consult during a call.
    const call = CallResponse.parse(
      (await send(t, 'POST', routes.startCall.path, medic1, { body: { caseId } })).json(),
    );
    expect(expectClientError(await join(medic1, caseId), 409).message).toBe(callMessages.endCallToStartConsult);
    await send(t, 'POST', buildPath(routes.endCall.path, { callId: call.call.id }), medic1, {
      body: { reason: 'cancel' },
    });

    // A consult during a transfer.
    const opened = await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId } });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(expectClientError(await join(ed1, caseId), 409).message).toBe(consultMessages.transferInProgress);
  });
});
