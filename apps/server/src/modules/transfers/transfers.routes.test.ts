import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  Case,
  CaseTransfer,
  parseChannelMessage,
  routes,
  TRANSFER_LIFETIME_MS,
  transferMessages,
  type RouteName,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  CLIENT_TIME,
  LAKESIDE_TRUCK,
  published,
  RIVERSIDE_TRUCK,
  send,
  startCase,
  signInAll,
  addUser,
} from '../../test/crew-api.js';
import { openAuthenticated, type TestSocket } from '../realtime/test-client.js';
import { recordedEvent } from '../cases/case-event-log.js';
import { CODE_MISSES_PER_MINUTE } from './transfers.service.js';

type Step = Extract<
  RouteName,
  | 'acceptTransferRequest'
  | 'denyTransferRequest'
  | 'cancelTransfer'
  | 'cancelTransferRequest'
  | 'transferReceived'
  | 'acknowledgeTransfer'
>;

describe('case transfer routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic2: string;
  let medic3: string;
  let ed1: string;

  beforeAll(async () => {
    t = await createTestApp();
    [medic1, medic2, medic3, ed1] = await signInAll(t, ['medic1', 'medic2', 'medic3', 'ed1']);
  });
  const sockets: TestSocket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  const parse = (res: { statusCode: number; body: string; json(): unknown }, status = 200): CaseTransfer => {
    expect(res.statusCode, res.body).toBe(status);
    return CaseTransfer.parse(res.json());
  };

  async function open(token = medic1): Promise<CaseTransfer> {
    const { id } = await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    return parse(await send(t, 'POST', routes.createTransfer.path, token, { body: { caseId: id }, key: null }), 201);
  }

  const request = (
    code: string,
    token = medic3,
    body: unknown = { emsAgencyId: IDS.agencies.lakeside, truckId: LAKESIDE_TRUCK },
  ) => send(t, 'POST', buildPath(routes.requestTransfer.path, { code }), token, { body, key: null });

  const step = (name: Step, id: string, token: string, body?: unknown) =>
    send(t, 'PATCH', buildPath(routes[name].path, { id }), token, { key: null, ...(body ? { body } : {}) });

  const getTransfer = (id: string, token: string) =>
    send(t, 'GET', buildPath(routes.getTransfer.path, { id }), token, { key: null });

  /** The case's `transfer` events as recorded (and as the contract reads them back). */
  async function transferEvents(caseId: string) {
    const rows = await t.database.db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', caseId)
      .where('type', '=', 'transfer')
      .orderBy('seq')
      .execute();
    return rows.map((row) => {
      const event = recordedEvent(row);
      return event?.type === 'transfer' ? event.payload : null;
    });
  }

  const getCase = (id: string, token: string) => send(t, 'GET', `/v4/twiageCases/${id}`, token, { key: null });

  let realtimeUrl: string | null = null;
  async function connect(token: string): Promise<TestSocket> {
    if (!realtimeUrl) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      realtimeUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/realtime`;
    }
    const socket = await openAuthenticated(realtimeUrl, token);
    sockets.push(socket);
    return socket;
  }

  async function subscribed(token: string, channel: string): Promise<TestSocket> {
    const socket = await connect(token);
    socket.send({ type: 'subscribe', channel });
    await socket.next('subscribed', (f) => f.channel === channel);
    return socket;
  }

  /** After a ping's pong, every frame the server sent the socket before it has arrived. */
  async function settled(socket: TestSocket): Promise<void> {
    socket.send({ type: 'ping' });
    await socket.next('pong');
  }

  it('requires authentication', async () => {
    expectClientError(
      await send(t, 'POST', routes.createTransfer.path, null, { body: { caseId: 'x' }, key: null }),
      401,
    );
    expectClientError(await getTransfer('x', ''), 401);
    expectClientError(await request('123456', ''), 401);
    expectClientError(await step('acceptTransferRequest', 'x', ''), 401);
  });

  it('hands the case over: open → request → accept → received → acknowledge, with the texts of §4 and §8', async () => {
    const { id: caseId } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic1, { body: { age: 67, agePeriod: 3 } });
    const opened = parse(
      await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId }, key: null }),
      201,
    );
    expect(opened.caseTransferCode).toMatch(/^\d{6}$/);
    expect(opened).toMatchObject({
      caseId,
      status: 'open',
      request: null,
      createdBy: IDS.users.medic1,
      emsAgency: IDS.agencies.riverside,
      pubnubChannel: `transfer:${opened._id}`,
      messageForSender: transferMessages.giveCode,
    });
    expect(Date.parse(opened.expiresAt) - Date.parse(opened.createdAt)).toBe(TRANSFER_LIFETIME_MS);

    // The receiver cannot read the case before the sender accepts.
    expectClientError(await getCase(caseId, medic3), 403);
    const requested = parse(await request(opened.caseTransferCode));
    expect(requested.request).toEqual({
      status: 'open',
      requestedBy: IDS.users.medic3,
      emsAgencyId: IDS.agencies.lakeside,
      truckId: LAKESIDE_TRUCK,
    });
    expect(requested.messageForSender).toBe('Someone wants to receive your case.');
    expect(parse(await getTransfer(opened._id, medic1)).request?.status).toBe('open');
    expectClientError(await getTransfer(opened._id, medic2), 403);

    const accepted = parse(await step('acceptTransferRequest', opened._id, medic1));
    expect(accepted.messageForSender).toBe('The requester is loading the case.');
    const loaded = Case.parse((await getCase(caseId, medic3)).json());
    expect(loaded.age).toBe(67);

    const received = parse(await step('transferReceived', opened._id, medic3));
    expect(received.messageForSender).toBe('The requester received the case.');
    const done = parse(await step('acknowledgeTransfer', opened._id, medic1));
    expect(done).toMatchObject({ status: 'done', request: { status: 'done' } });
    expect(done.messageForSender).toBe('The case transfer is done.');
    expect(done.messageForReceiver).toBe('The case transfer is done.');

    // Ownership passed: the receiver owns and writes the case; the sender can no longer write (or read) it.
    expect(Case.parse((await getCase(caseId, medic3)).json()).ownedBy).toBe(IDS.users.medic3);
    const write = await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic3, { body: { gender: 'F' } });
    expect(write.statusCode, write.body).toBe(200);
    expectClientError(await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic1, { body: { gender: 'M' } }), 403);

    const events = await published(t, `transfer:${opened._id}`, 'CASE_TRANSFER_UPDATED');
    expect(events.map((e) => CaseTransfer.parse(e.data).request?.status ?? 'none')).toEqual([
      'none',
      'open',
      'accepted',
      'received',
      'done',
    ]);

    // The case's own log records who held it, through the cases service (typed `transfer` events).
    expect(await transferEvents(caseId)).toEqual([
      { action: 'receiverAdmitted', transferId: opened._id, receiver: IDS.users.medic3 },
      { action: 'handedOver', transferId: opened._id, from: IDS.users.medic1, to: IDS.users.medic3 },
    ]);

    // A retried step answers the state it reached; the code is no longer live.
    expect(parse(await step('acknowledgeTransfer', opened._id, medic1)).status).toBe('done');
    expect(parse(await step('transferReceived', opened._id, medic3)).status).toBe('done');
    expect((await published(t, `transfer:${opened._id}`)).length).toBe(5);
    expect(
      expectClientError(
        await request(opened.caseTransferCode, medic2, {
          emsAgencyId: IDS.agencies.riverside,
          truckId: RIVERSIDE_TRUCK,
        }),
        404,
      ).message,
    ).toBe(transferMessages.notAvailable);
  });

  it('declines a request, keeps the code open for another, and lets the sender cancel then', async () => {
    const opened = await open();
    parse(await request(opened.caseTransferCode));
    const denied = parse(await step('denyTransferRequest', opened._id, medic1));
    expect(denied.messageForReceiver).toBe('The request was declined.');
    expect(parse(await getTransfer(opened._id, medic3)).request?.status).toBe('denied');
    expect(parse(await step('denyTransferRequest', opened._id, medic1)).request?.status).toBe('denied');

    const again = parse(
      await request(opened.caseTransferCode, medic2, { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK }),
    );
    expect(again.request?.requestedBy).toBe(IDS.users.medic2);
    // The earlier requester is no longer a party.
    expectClientError(await getTransfer(opened._id, medic3), 403);
    // With a request pending the sender cannot cancel (§4).
    expect(expectClientError(await step('cancelTransfer', opened._id, medic1), 409).message).toBe(
      transferMessages.notPossibleNow,
    );
    const withdrawn = parse(await step('cancelTransferRequest', opened._id, medic2));
    expect(withdrawn.messageForSender).toBe('Request cancelled.');
    expect(withdrawn.messageForReceiver).toBe('Request Cancelled');

    const cancelled = parse(await step('cancelTransfer', opened._id, medic1));
    expect(cancelled).toMatchObject({ status: 'cancelled', messageForSender: 'The case transfer was cancelled.' });
    expect(expectClientError(await request(opened.caseTransferCode), 404).message).toBe(
      'Case not available for transfer.',
    );
    expect(parse(await step('cancelTransfer', opened._id, medic1)).status).toBe('cancelled');
    expect(expectClientError(await step('denyTransferRequest', opened._id, medic1), 409).message).toBe(
      'The case transfer was cancelled.',
    );
  });

  it("says a cancel by the client's offline timer timed out", async () => {
    const opened = await open();
    const timedOut = parse(await step('cancelTransfer', opened._id, medic1, { reason: 'timeout' }));
    expect(timedOut.messageForSender).toBe('The case transfer timed out and it was cancelled.');
    expectClientError(await step('cancelTransfer', opened._id, medic1, { reason: 'network' }), 400);
  });

  it('expires after its lifetime: the code says so and an accepted receiver loses the case again', async () => {
    const opened = await open();
    parse(await request(opened.caseTransferCode));
    parse(await step('acceptTransferRequest', opened._id, medic1));
    expect((await getCase(opened.caseId, medic3)).statusCode).toBe(200);

    t.clock.advance(TRANSFER_LIFETIME_MS);
    const expired = parse(await getTransfer(opened._id, medic3));
    expect(expired).toMatchObject({ status: 'expired', messageForSender: 'The case transfer expired.' });
    expectClientError(await getCase(opened.caseId, medic3), 403);
    expect((await getCase(opened.caseId, medic1)).statusCode).toBe(200);
    expect(
      expectClientError(
        await request(opened.caseTransferCode, medic2, {
          emsAgencyId: IDS.agencies.riverside,
          truckId: RIVERSIDE_TRUCK,
        }),
        410,
      ).message,
    ).toBe('Case Transfer has expired.');
    expect(expectClientError(await step('transferReceived', opened._id, medic3), 409).message).toBe(
      'The case transfer expired.',
    );
    const last = (await published(t, `transfer:${opened._id}`)).at(-1);
    expect(CaseTransfer.parse(last?.data).status).toBe('expired');
    expect(await transferEvents(opened.caseId)).toEqual([
      { action: 'receiverAdmitted', transferId: opened._id, receiver: IDS.users.medic3 },
      { action: 'receiverDismissed', transferId: opened._id, receiver: IDS.users.medic3 },
    ]);

    // An expired transfer no longer blocks a new one of the same case.
    parse(
      await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId: opened.caseId }, key: null }),
      201,
    );
  });

  it('refuses every step out of order or by the wrong side', async () => {
    const opened = await open();
    const illegal: [Step, string, number][] = [
      ['acceptTransferRequest', medic1, 409],
      ['denyTransferRequest', medic1, 409],
      ['cancelTransferRequest', medic1, 403],
      ['transferReceived', medic1, 403],
      ['acknowledgeTransfer', medic1, 409],
      ['acceptTransferRequest', medic3, 403],
    ];
    for (const [name, token, status] of illegal) expectClientError(await step(name, opened._id, token), status);

    parse(await request(opened.caseTransferCode));
    expectClientError(await step('acceptTransferRequest', opened._id, medic3), 403);
    expectClientError(await step('transferReceived', opened._id, medic3), 409);
    expectClientError(await step('acknowledgeTransfer', opened._id, medic1), 409);
    parse(await step('acceptTransferRequest', opened._id, medic1));
    expect(parse(await step('acceptTransferRequest', opened._id, medic1)).request?.status).toBe('accepted');
    expectClientError(await step('cancelTransferRequest', opened._id, medic3), 409);
    expectClientError(await step('cancelTransfer', opened._id, medic1), 409);
    expectClientError(await step('denyTransferRequest', opened._id, medic1), 409);
    expectClientError(await step('acknowledgeTransfer', opened._id, medic1), 409);
    expectClientError(await step('acceptTransferRequest', 'no-such-transfer', medic1), 404);
    expectClientError(await step('acceptTransferRequest', opened._id, medic2), 403);
  });

  it('lets the receiver read but not change the case between accept and done', async () => {
    const opened = await open();
    parse(await request(opened.caseTransferCode));
    parse(await step('acceptTransferRequest', opened._id, medic1));
    const caseId = opened.caseId;
    expect((await getCase(caseId, medic3)).statusCode).toBe(200);

    const writes: [Parameters<typeof send>[1], string, unknown?][] = [
      ['PATCH', `/v4/twiageCases/${caseId}`, { gender: 'F' }],
      ['PATCH', `/v4/twiageCases/${caseId}`, { arrivedAt: CLIENT_TIME }],
      ['POST', `/v4/twiageCases/${caseId}/locationUpdates`, { latitude: 42.1, longitude: -71.1 }],
      ['POST', `/v4/twiageCases/${caseId}/tags?tagId=tag-any`],
      ['DELETE', `/v4/twiageCases/${caseId}/tags?tagId=tag-any`],
      [
        'PATCH',
        `/v4/twiageCases/${caseId}/tags/tag-any/values`,
        { fields: [{ key: 'bp', value: '120/80', name: 'BP', type: 'text' }] },
      ],
      ['PUT', `/v4/twiageCases/${caseId}/dynamicForms/form-any`, { fields: [] }],
      ['PATCH', `/monitor-integration/lifepak/${caseId}`, { monitorId: 'monitor-any', patientId: '12' }],
    ];
    for (const [method, path, body] of writes) {
      const refused = expectClientError(await send(t, method, path, medic3, body === undefined ? {} : { body }), 403);
      expect(refused.message, `${method} ${path}`).toMatch(/^Only the crew that owns this case can change it/);
    }
    const chat = expectClientError(
      await send(t, 'POST', `/notification/twiage-cases/${caseId}/chat-messages`, medic3, {
        body: {
          clientCreatedAt: CLIENT_TIME,
          deviceId: 'web_ems',
          message: 'Taking over',
          timestamp: CLIENT_TIME,
          source: 'web_ems',
          senderOrganization: 'Hilltop',
        },
      }),
      403,
    );
    expect(chat.message).toMatch(/^Only the crew that owns this case can send messages in it/);
    const unchanged = Case.parse((await getCase(caseId, medic1)).json());
    expect(unchanged).toMatchObject({ gender: null, arrivedAt: null, lastLocation: null, ownedBy: IDS.users.medic1 });
    // The sender still owns it until it acknowledges.
    const own = await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic1, { body: { gender: 'M' } });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('refuses to close a case while a transfer of it is live, and never hands over a closed case', async () => {
    const close = (caseId: string) =>
      send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic1, { body: { arrivedAt: CLIENT_TIME } });
    const closeRefused = /^This case cannot be closed while a case transfer of it is in progress/;

    const opened = await open();
    expect(expectClientError(await close(opened.caseId), 409).message).toMatch(closeRefused);
    parse(await request(opened.caseTransferCode));
    expect(expectClientError(await close(opened.caseId), 409).message).toMatch(closeRefused);
    parse(await step('acceptTransferRequest', opened._id, medic1));
    expect(expectClientError(await close(opened.caseId), 409).message).toMatch(closeRefused);
    expect(Case.parse((await getCase(opened.caseId, medic1)).json()).arrivedAt).toBeNull();
    // Once the transfer has ended (here: expired) the case closes as usual.
    t.clock.advance(TRANSFER_LIFETIME_MS);
    expect((await close(opened.caseId)).statusCode).toBe(200);

    // A close that raced the transfer's opening (the case closed with a transfer live): accept and
    // acknowledge refuse, so the closed case is neither shown to nor given to the receiver.
    const raced = await open();
    parse(await request(raced.caseTransferCode));
    const closedAt = new Date(t.clock.now()).toISOString();
    await t.database.db
      .updateTable('cases')
      .set({ arrived_at: closedAt, closed_at: closedAt })
      .where('id', '=', raced.caseId)
      .execute();
    expect(expectClientError(await step('acceptTransferRequest', raced._id, medic1), 409).message).toBe(
      transferMessages.notAvailable,
    );
    expectClientError(await getCase(raced.caseId, medic3), 403);

    const racedLate = await open();
    parse(await request(racedLate.caseTransferCode));
    parse(await step('acceptTransferRequest', racedLate._id, medic1));
    parse(await step('transferReceived', racedLate._id, medic3));
    await t.database.db
      .updateTable('cases')
      .set({ arrived_at: closedAt, closed_at: closedAt })
      .where('id', '=', racedLate.caseId)
      .execute();
    expect(expectClientError(await step('acknowledgeTransfer', racedLate._id, medic1), 409).message).toBe(
      transferMessages.notAvailable,
    );
    expect(Case.parse((await getCase(racedLate.caseId, medic1)).json()).ownedBy).toBe(IDS.users.medic1);
    expect(parse(await getTransfer(racedLate._id, medic1)).request?.status).toBe('received');
  });

  it('lets only a crew of the given team and truck request, never the sender itself', async () => {
    const opened = await open();
    expect(expectClientError(await request(opened.caseTransferCode, ed1), 403).message).toBe(
      'Only a crew can receive a case.',
    );
    expectClientError(
      await request(opened.caseTransferCode, medic3, { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK }),
      403,
    );
    expect(
      expectClientError(
        await request(opened.caseTransferCode, medic3, {
          emsAgencyId: IDS.agencies.lakeside,
          truckId: RIVERSIDE_TRUCK,
        }),
        400,
      ).message,
    ).toMatch(/truckId/);
    expectClientError(await request(opened.caseTransferCode, medic3, { emsAgencyId: IDS.agencies.lakeside }), 400);
    expectClientError(await request('12a456'), 400);
    expectClientError(await request('1234567'), 400);
    expect(
      expectClientError(
        await request(opened.caseTransferCode, medic1, { emsAgencyId: IDS.agencies.lakeside, truckId: LAKESIDE_TRUCK }),
        409,
      ).message,
    ).toBe(transferMessages.ownTransfer);
    // The same requester retrying gets the pending request back; a second crew finds it taken.
    parse(await request(opened.caseTransferCode));
    expect(parse(await request(opened.caseTransferCode)).request?.requestedBy).toBe(IDS.users.medic3);
    expectClientError(
      await request(opened.caseTransferCode, medic2, { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK }),
      409,
    );
  });

  it('opens a transfer only for a crew of the open case, one live transfer at a time', async () => {
    const opened = await open();
    expect(
      expectClientError(
        await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId: opened.caseId }, key: null }),
        409,
      ).message,
    ).toBe(transferMessages.alreadyTransferring);
    expectClientError(
      await send(t, 'POST', routes.createTransfer.path, medic2, { body: { caseId: opened.caseId }, key: null }),
      403,
    );
    expectClientError(
      await send(t, 'POST', routes.createTransfer.path, ed1, { body: { caseId: opened.caseId }, key: null }),
      403,
    );
    expectClientError(
      await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId: 'no-such-case' }, key: null }),
      404,
    );
    expectClientError(await send(t, 'POST', routes.createTransfer.path, medic1, { body: {}, key: null }), 400);

    const closed = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await send(t, 'PATCH', `/v4/twiageCases/${closed.id}`, medic1, { body: { arrivedAt: CLIENT_TIME } });
    expect(
      expectClientError(
        await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId: closed.id }, key: null }),
        409,
      ).message,
    ).toBe('Case not available for transfer.');
  });

  it('makes a user who tries unknown codes wait a minute', async () => {
    await addUser(t, 'guesser', { roles: ['crew'], memberOf: [IDS.agencies.lakeside] });
    const guesser = await t.signIn('guesser');
    const opened = await open();
    const wrong = opened.caseTransferCode === '000000' ? '000001' : '000000';
    for (let i = 0; i < CODE_MISSES_PER_MINUTE; i += 1) {
      expect(expectClientError(await request(wrong, guesser), 404).message).toBe(transferMessages.notAvailable);
    }
    expectClientError(await request(opened.caseTransferCode, guesser), 429);
    // Others are not held back by one user's guessing.
    parse(await request(opened.caseTransferCode));
    parse(await step('cancelTransferRequest', opened._id, medic3));
    t.clock.advance(60_000);
    expect(parse(await request(opened.caseTransferCode, guesser)).request?.requestedBy).toBe('user-guesser');
  });

  it('lets only the two crews subscribe to transfer:{id}', async () => {
    const opened = await open();
    parse(await request(opened.caseTransferCode));
    const channel = `transfer:${opened._id}`;
    for (const [token, allowed] of [
      [medic1, true],
      [medic3, true],
      [medic2, false],
      [ed1, false],
    ] as const) {
      const socket = await connect(token);
      socket.send({ type: 'subscribe', channel, lastSeq: 0 });
      if (allowed) {
        expect((await socket.next('subscribed')).channel).toBe(channel);
        const caughtUp = await socket.next('message');
        expect(CaseTransfer.parse(caughtUp.event.data).status).toBe('open');
      } else {
        expect((await socket.next('error')).channel).toBe(channel);
      }
      socket.close();
    }
  });

  describe('ends live subscriptions of whoever lost access to the case', () => {
    const caseMessages = (socket: TestSocket, caseId: string) =>
      socket.frames.filter((f) => f.type === 'message' && f.channel === `case:${caseId}`);

    it("on acknowledge: the sender's case: subscription gets an error and no later change", async () => {
      const opened = await open();
      const caseChannel = `case:${opened.caseId}`;
      const sender = await subscribed(medic1, caseChannel);
      sender.send({ type: 'subscribe', channel: opened.pubnubChannel });
      await sender.next('subscribed', (f) => f.channel === opened.pubnubChannel);
      parse(await request(opened.caseTransferCode));
      parse(await step('acceptTransferRequest', opened._id, medic1));
      const receiver = await subscribed(medic3, caseChannel);
      parse(await step('transferReceived', opened._id, medic3));
      parse(await step('acknowledgeTransfer', opened._id, medic1));

      expect(await sender.next('error', (f) => f.channel === caseChannel)).toEqual({
        type: 'error',
        channel: caseChannel,
        message: 'You no longer have access to this channel.',
      });
      const write = await send(t, 'PATCH', `/v4/twiageCases/${opened.caseId}`, medic3, { body: { gender: 'F' } });
      expect(write.statusCode, write.body).toBe(200);
      const onReceiver = await receiver.next('message', (m) => m.channel === caseChannel);
      expect(onReceiver.event).toMatchObject({ type: 'case.updated', data: { caseId: opened.caseId } });
      await settled(sender);
      // What it heard on the case while it held it: the accept's `transfer` event; nothing after.
      expect(
        caseMessages(sender, opened.caseId).map((f) => {
          const message = f.type === 'message' ? parseChannelMessage('case', f.event) : null;
          return message?.type === 'case.updated' && message.data.event.type === 'transfer'
            ? message.data.event.payload.action
            : message?.type;
        }),
      ).toEqual(['receiverAdmitted']);
      // The socket stays open with its other subscriptions: the transfer's own channel still reaches it.
      await sender.next(
        'message',
        (m) => m.channel === opened.pubnubChannel && CaseTransfer.parse(m.event.data).status === 'done',
      );
      // And a new subscription to the case is refused.
      sender.send({ type: 'subscribe', channel: caseChannel });
      expect((await sender.next('error', (f) => f.channel === caseChannel)).message).toBe(
        'Not allowed to subscribe to this channel.',
      );
    });

    it("on expiry after accept: the receiver's case: subscription ends, the sender's stays", async () => {
      const opened = await open();
      const caseChannel = `case:${opened.caseId}`;
      parse(await request(opened.caseTransferCode));
      parse(await step('acceptTransferRequest', opened._id, medic1));
      const sender = await subscribed(medic1, caseChannel);
      const receiver = await subscribed(medic3, caseChannel);

      t.clock.advance(TRANSFER_LIFETIME_MS);
      expect(parse(await getTransfer(opened._id, medic1)).status).toBe('expired');
      expect((await receiver.next('error', (f) => f.channel === caseChannel)).message).toBe(
        'You no longer have access to this channel.',
      );
      const write = await send(t, 'PATCH', `/v4/twiageCases/${opened.caseId}`, medic1, { body: { gender: 'M' } });
      expect(write.statusCode, write.body).toBe(200);
      await sender.next('message', (m) => m.channel === caseChannel);
      await settled(receiver);
      expect(caseMessages(receiver, opened.caseId)).toEqual([]);
      expect(sender.frames.filter((f) => f.type === 'error')).toEqual([]);
    });
  });
});
