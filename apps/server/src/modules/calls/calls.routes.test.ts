import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_EVENTS,
  CALL_RING_TIMEOUT_MS,
  CallChanged,
  CallResponse,
  HospitalChannelMessage,
  RingingCallsResponse,
  VoipTokenResponse,
  buildPath,
  callMessages,
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
import { turnCredential } from './ice.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;
const VALLEY = IDS.hospitals.valleyCommunity;
const TURN_SECRET = 'a-turn-shared-secret-for-tests';

const tokenPath = (id: string) => buildPath(routes.voipToken.path, { id });
const answerPath = (callId: string) => buildPath(routes.answerCall.path, { callId });
const signalPath = (callId: string) => buildPath(routes.signalCall.path, { callId });
const endPath = (callId: string) => buildPath(routes.endCall.path, { callId });
const OFFER = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };

describe('voice call routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let ed2: string;
  let edStMarys: string;
  let caseId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ICE_SERVERS: '[{"urls":"stun:stun.example.org:3478"}]',
        TURN_URLS: 'turn:turn.example.org:3478?transport=udp,turns:turn.example.org:5349',
        TURN_SECRET,
        TURN_CREDENTIAL_TTL: '10m',
      },
    });
    await addUser(t, 'ed2', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic1, medic3, ed1, ed2, edStMarys] = await signInAll(t, ['medic1', 'medic3', 'ed1', 'ed2', 'edstmarys']);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, RIVERSIDE);
  });
  afterAll(() => t.close());

  const start = (token: string, id = caseId) => send(t, 'POST', routes.startCall.path, token, { body: { caseId: id } });
  const end = (token: string, callId: string, reason: string) =>
    send(t, 'POST', endPath(callId), token, { body: { reason } });

  it('hands out ICE servers with TURN credentials coturn accepts, and the ED department', async () => {
    const res = await send(t, 'GET', tokenPath(caseId), medic1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const body = VoipTokenResponse.parse(res.json());
    expect(body.department).toEqual({ name: 'Riverside Regional Medical Center ED', allowsToRecord: false });
    expect(body.iceServers[0]).toEqual({ urls: ['stun:stun.example.org:3478'] });
    const turn = body.iceServers[1]!;
    expect(turn.urls).toEqual(['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349']);
    const [expiry, user] = turn.username!.split(':');
    expect(user).toBe(IDS.users.medic1);
    // Valid for TURN_CREDENTIAL_TTL from now, signed with the shared secret (TURN REST API).
    expect(Number(expiry) - Math.floor(t.clock.now().getTime() / 1000)).toBe(600);
    expect(turn.credential).toBe(turnCredential(TURN_SECRET, IDS.users.medic1, Number(expiry)).credential);
    expect(body.ttlSeconds).toBe(600);
    expect(JSON.stringify(body)).not.toContain(TURN_SECRET);
  });

  it('gives a hospital not on the platform only its ED numbers, and refuses a call there', async () => {
    const other = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, other, VALLEY);
    const body = VoipTokenResponse.parse((await send(t, 'GET', tokenPath(other), medic1, { key: null })).json());
    expect(body.department).toBeNull();
    expect(body.edPhoneNumbers).toEqual([{ name: 'Emergency Department', phoneNumber: '+1-555-0130' }]);
    expect(expectClientError(await start(medic1, other), 409).message).toBe(callMessages.notOnPlatform);
  });

  it('refuses strangers and bad input with a 4xx', async () => {
    expect((await send(t, 'GET', tokenPath(caseId), medic3, { key: null })).statusCode).toBe(403);
    expect((await send(t, 'GET', tokenPath(caseId), edStMarys, { key: null })).statusCode).toBe(403);
    expect((await send(t, 'GET', tokenPath('no-such-case'), medic1, { key: null })).statusCode).toBe(404);
    expect((await send(t, 'GET', tokenPath(caseId), null, { key: null })).statusCode).toBe(401);
    expectClientError(await start(medic3), 403);
    // ED staff read the case but do not start calls from the console.
    expectClientError(await start(ed1), 403);
    expectClientError(await send(t, 'POST', routes.startCall.path, medic1, { body: {} }), 400);
    expectClientError(await send(t, 'POST', routes.startCall.path, medic1, { body: { caseId: 'x'.repeat(65) } }), 400);
    expectClientError(await start(medic1, 'placeholder-1732540000000'), 404);
  });

  it('rings every console of the ED; the first answer takes it, the second is told who did', async () => {
    const res = await start(medic1);
    expect(res.statusCode, res.body).toBe(201);
    const { call } = CallResponse.parse(res.json());
    expect(call).toMatchObject({ state: 'ringing', hospitalId: RIVERSIDE, caller: { userId: IDS.users.medic1 } });
    const ring = (await published(t, `hospital:${RIVERSIDE}`, CALL_EVENTS.ring)).at(-1);
    const parsed = HospitalChannelMessage.parse(ring);
    expect(parsed.type === CALL_EVENTS.ring && parsed.data.card?.truck.id).toBe(RIVERSIDE_TRUCK);

    // A second call of the case while one rings: refused.
    expect(expectClientError(await start(medic1), 409).message).toBe(callMessages.callInProgress);
    // A transfer while the call rings: refused (spec §4), and a stranger cannot answer.
    const transfer = await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId } });
    expect(expectClientError(transfer, 409).message).toBe(callMessages.closeCallToTransfer);
    expectClientError(await send(t, 'POST', answerPath(call.id), edStMarys), 403);
    expectClientError(await send(t, 'POST', answerPath(call.id), medic1), 403);

    // The caller's offer goes on the call's channel before anyone answers.
    expect((await send(t, 'POST', signalPath(call.id), medic1, { body: { description: OFFER } })).statusCode).toBe(204);
    const [first, second] = await Promise.all([
      send(t, 'POST', answerPath(call.id), ed1),
      send(t, 'POST', answerPath(call.id), ed2),
    ]);
    const winner = first.statusCode === 200 ? first : second;
    const loser = first.statusCode === 200 ? second : first;
    expect(winner.statusCode, winner.body).toBe(200);
    const answered = CallResponse.parse(winner.json()).call;
    expect(answered.state).toBe('connected');
    expect(expectClientError(loser, 409).message).toBe(callMessages.answeredElsewhere(answered.answeredBy!.name));
    expect(await published(t, `hospital:${RIVERSIDE}`, CALL_EVENTS.answered)).toHaveLength(1);

    // Only the two parties signal; a signal needs something in it.
    const answerer = answered.answeredBy!.userId === IDS.users.ed1 ? ed1 : ed2;
    const other = answerer === ed1 ? ed2 : ed1;
    expectClientError(await send(t, 'POST', signalPath(call.id), other, { body: { description: OFFER } }), 403);
    expectClientError(await send(t, 'POST', signalPath(call.id), answerer, { body: {} }), 400);
    expectClientError(
      await send(t, 'POST', signalPath(call.id), answerer, {
        body: { description: { type: 'offer', sdp: 'x'.repeat(16_001) } },
      }),
      400,
    );
    const candidates = [
      { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 },
    ];
    expect((await send(t, 'POST', signalPath(call.id), answerer, { body: { candidates } })).statusCode).toBe(204);
    const signals = await published(t, `call:${call.id}`, CALL_EVENTS.signal);
    expect(signals.map((s) => (s.data as { from: string }).from)).toEqual([
      IDS.users.medic1,
      answered.answeredBy!.userId,
    ]);

    // Hang-up by the ED after 95 s (both browsers saying every 10 s they are still in the call, as the
    // apps do; a call nobody keeps alive would end as lost): one `call` case event with who, when, how long.
    const alivePath = buildPath(routes.callAlive.path, { callId: call.id });
    for (let i = 0; i < 9; i += 1) {
      t.clock.advance(10_000);
      expect((await send(t, 'POST', alivePath, i % 2 ? medic1 : answerer)).statusCode).toBe(204);
    }
    t.clock.advance(5_000);
    expectClientError(await end(other, call.id, 'hangup'), 403);
    expectClientError(await end(medic1, call.id, 'nonsense'), 400);
    const ended = await end(answerer, call.id, 'hangup');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(CallChanged.parse(ended.json()).call).toMatchObject({ state: 'ended', outcome: 'completed' });
    // Again: idempotent, still one event.
    expect((await end(medic1, call.id, 'hangup')).statusCode).toBe(200);
    const events = await t.database.db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', caseId)
      .where('type', '=', 'call')
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      callId: call.id,
      callerName: expect.any(String),
      answeredByName: answered.answeredBy!.name,
      durationSeconds: 95,
      outcome: 'completed',
    });
    expect(events[0]!.actor_user_id).toBe(answered.answeredBy!.userId);
    expect(await published(t, `case:${caseId}`, 'case.updated')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          data: expect.objectContaining({ event: expect.objectContaining({ type: 'call' }) }),
        }),
      ]),
    );
  });

  it('ends a ring as cancelled, rejected or missed, and blocks calls while a transfer is live', async () => {
    const cancelled = CallResponse.parse((await start(medic1)).json()).call;
    expect(CallChanged.parse((await end(medic1, cancelled.id, 'cancel')).json()).call.outcome).toBe('cancelled');

    const rejected = CallResponse.parse((await start(medic1)).json()).call;
    expectClientError(await end(edStMarys, rejected.id, 'reject'), 403);
    expect(CallChanged.parse((await end(ed2, rejected.id, 'reject')).json()).call.outcome).toBe('rejected');
    expect(expectClientError(await send(t, 'POST', answerPath(rejected.id), ed1), 409).message).toBe(
      callMessages.callOver,
    );

    // Nobody answers: past the ring timeout the call is missed, and the case may call again.
    const missed = CallResponse.parse((await start(medic1)).json()).call;
    t.clock.advance(CALL_RING_TIMEOUT_MS + 20_000);
    const again = await start(medic1);
    expect(again.statusCode, again.body).toBe(201);
    const read = await send(t, 'GET', buildPath(routes.getCall.path, { callId: missed.id }), ed1, { key: null });
    expect(CallChanged.parse(read.json()).call.outcome).toBe('missed');
    await end(medic1, CallResponse.parse(again.json()).call.id, 'cancel');

    const transfer = await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId } });
    expect(transfer.statusCode, transfer.body).toBe(201);
    expect(expectClientError(await start(medic1), 409).message).toBe(callMessages.transferInProgress);
  });

  it('rings only the destination ED and shows the call only to the case’s readers', async () => {
    const other = (await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK)).id;
    await setDestination(t, medic3, other, ST_MARYS);
    const call = CallResponse.parse((await start(medic3, other)).json()).call;
    const ring = await published(t, `hospital:${ST_MARYS}`, CALL_EVENTS.ring);
    expect(ring).toHaveLength(1);
    expect(await published(t, `hospital:${RIVERSIDE}`, CALL_EVENTS.ring)).not.toContainEqual(
      expect.objectContaining({ data: expect.objectContaining({ call: expect.objectContaining({ id: call.id }) }) }),
    );
    expectClientError(
      await send(t, 'GET', buildPath(routes.getCall.path, { callId: call.id }), ed1, { key: null }),
      403,
    );
    expect(
      (await send(t, 'GET', buildPath(routes.getCall.path, { callId: call.id }), edStMarys, { key: null })).statusCode,
    ).toBe(200);
  });

  it('tells a console opened while a call rings which calls ring at its hospital, to its ED staff only', async () => {
    const ringingPath = (id: string) => buildPath(routes.ringingCalls.path, { id });
    const ringing = async (token: string, hospitalId: string = RIVERSIDE) => {
      const res = await send(t, 'GET', ringingPath(hospitalId), token, { key: null });
      expect(res.statusCode, res.body).toBe(200);
      return RingingCallsResponse.parse(res.json()).rings;
    };
    const other = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, other, RIVERSIDE);
    expect(await ringing(ed1)).toEqual([]);

    const call = CallResponse.parse((await start(medic1, other)).json()).call;
    const [ring] = await ringing(ed2);
    expect(ring?.call).toMatchObject({ id: call.id, state: 'ringing', caseId: other });
    expect(ring?.card?.truck.id).toBe(RIVERSIDE_TRUCK);
    // St. Mary's rings only for its own cases (medic3's, still ringing from the test above).
    expect((await ringing(edStMarys, ST_MARYS)).map((r) => r.call.hospitalId)).toEqual([ST_MARYS]);

    // Another hospital's staff, the crew, no token, a bad id: refused.
    expectClientError(await send(t, 'GET', ringingPath(RIVERSIDE), edStMarys, { key: null }), 403);
    expectClientError(await send(t, 'GET', ringingPath(RIVERSIDE), medic1, { key: null }), 403);
    expect((await send(t, 'GET', ringingPath(RIVERSIDE), null, { key: null })).statusCode).toBe(401);
    expectClientError(await send(t, 'GET', ringingPath('x'.repeat(65)), ed1, { key: null }), 400);

    // Answered: it rings nowhere any more.
    expect((await send(t, 'POST', answerPath(call.id), ed1)).statusCode).toBe(200);
    expect(await ringing(ed2)).toEqual([]);
    await end(ed1, call.id, 'hangup');

    // A ring past its time is not offered (it is ended as missed when met).
    const late = CallResponse.parse((await start(medic1, other)).json()).call;
    t.clock.advance(CALL_RING_TIMEOUT_MS + 20_000);
    expect(await ringing(ed1)).toEqual([]);
    const read = await send(t, 'GET', buildPath(routes.getCall.path, { callId: late.id }), ed1, { key: null });
    expect(CallChanged.parse(read.json()).call.outcome).toBe('missed');
  });
});
