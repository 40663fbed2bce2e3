/**
 * The gateway over real sockets on an ephemeral port, on SQLite and PostgreSQL: authentication,
 * authorisation of every channel kind, catch-up after a reconnect, heartbeat, limits and Origin.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, CreateCaseResponse, REALTIME_CLOSE, routes } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addUser } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';
import { openAuthenticated, openSocket, type TestSocket } from './test-client.js';

const dialects = await testDialects();
const HEARTBEAT_MS = 400;
const MAX_FRAME = 2_048;
const RATE = 10;

describe.each(dialects)('real-time gateway on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  let origin: string;
  let medic1: string;
  let medic2: string;
  let medic3: string;
  let ed1: string;
  const sockets: TestSocket[] = [];

  async function connect(token: string): Promise<TestSocket> {
    const socket = await openAuthenticated(url, token);
    sockets.push(socket);
    return socket;
  }

  async function write(method: 'POST' | 'PATCH', path: string, token: string, body: unknown) {
    const res = await t.app.inject({
      method,
      url: path,
      headers: { authorization: authorizationHeader(token), 'idempotency-key': randomUUID() },
      payload: body as object,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as unknown;
  }

  async function startCase(destination: string | null): Promise<string> {
    const created = CreateCaseResponse.parse(
      await write('POST', `/v4/twiageCases?placeholder-${Date.now()}`, medic1, {
        emsAgency: IDS.agencies.riverside,
        truck: 'truck-riverside-medic-1',
        beganAt: '2026-11-21T11:58:00.000Z',
      }),
    );
    if (destination) {
      await write('PATCH', buildPath(routes.patchCase.path, { id: created.id }), medic1, {
        destinationHospital: destination,
      });
    }
    return created.id;
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      env: {
        REALTIME_HEARTBEAT: `${HEARTBEAT_MS}ms`,
        REALTIME_MAX_FRAME_BYTES: String(MAX_FRAME),
        REALTIME_MAX_MESSAGES_PER_SECOND: String(RATE),
        REALTIME_ALLOWED_ORIGINS: 'https://console.example.org',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    url = `ws://127.0.0.1:${port}/realtime`;
    origin = `http://127.0.0.1:${port}`;
    [medic1, medic2, medic3, ed1] = await Promise.all([
      t.signIn('medic1'),
      t.signIn('medic2'),
      t.signIn('medic3'),
      t.signIn('ed1'),
    ]);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  describe('authentication', () => {
    it('answers ready with the heartbeat for a valid token', async () => {
      const client = await openSocket(url);
      sockets.push(client);
      client.send({ type: 'auth', token: medic1 });
      expect(await client.next('ready')).toEqual({
        type: 'ready',
        userId: IDS.users.medic1,
        heartbeatMs: HEARTBEAT_MS,
      });
    });

    it('closes with 4401 on a bad token, on a frame before auth, and when no auth comes', async () => {
      const bad = await openSocket(url);
      bad.send({ type: 'auth', token: `${medic1}x` });
      expect((await bad.closed).code).toBe(REALTIME_CLOSE.unauthorized);

      const early = await openSocket(url);
      early.send({ type: 'subscribe', channel: `user:${IDS.users.medic1}` });
      expect((await early.closed).code).toBe(REALTIME_CLOSE.unauthorized);

      const silent = await openSocket(url);
      const started = Date.now();
      expect((await silent.closed).code).toBe(REALTIME_CLOSE.unauthorized);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    }, 10_000);

    it('closes every socket of a session within 5 s of its sign-out, and only those', async () => {
      const token = await t.signIn('medic2');
      const [a, b, other] = await Promise.all([connect(token), connect(token), connect(medic2)]);
      const res = await t.app.inject({
        method: 'POST',
        url: routes.signOut.path,
        headers: { authorization: authorizationHeader(token) },
      });
      expect(res.statusCode).toBe(204);
      const started = Date.now();
      expect((await a.closed).code).toBe(REALTIME_CLOSE.revoked);
      expect((await b.closed).code).toBe(REALTIME_CLOSE.revoked);
      expect(Date.now() - started).toBeLessThan(5_000);
      other.send({ type: 'ping' });
      await other.next('pong');
    }, 10_000);
  });

  describe('authorisation', () => {
    let caseId: string;
    let valleyCaseId: string;
    beforeAll(async () => {
      caseId = await startCase(IDS.hospitals.riversideRegional);
      valleyCaseId = await startCase(IDS.hospitals.valleyCommunity);
    });

    async function subscribe(token: string, channel: string): Promise<'subscribed' | 'refused'> {
      const client = await connect(token);
      client.send({ type: 'subscribe', channel });
      const answer = await Promise.race([
        client.next('subscribed', (f) => f.channel === channel).then(() => 'subscribed' as const),
        client.next('error', (f) => f.channel === channel).then(() => 'refused' as const),
      ]);
      // A refusal leaves the socket open.
      client.send({ type: 'ping' });
      await client.next('pong');
      return answer;
    }

    it('case: its crew and the ED staff of its platform destination; not another agency, not a teammate', async () => {
      expect(await subscribe(medic1, `case:${caseId}`)).toBe('subscribed');
      expect(await subscribe(ed1, `case:${caseId}`)).toBe('subscribed');
      expect(await subscribe(medic3, `case:${caseId}`)).toBe('refused');
      expect(await subscribe(medic2, `case:${caseId}`)).toBe('refused');
      expect(await subscribe(medic1, 'case:no-such-case')).toBe('refused');
    });

    it('hospital: its ED staff only', async () => {
      expect(await subscribe(ed1, `hospital:${IDS.hospitals.riversideRegional}`)).toBe('subscribed');
      expect(await subscribe(ed1, `hospital:${IDS.hospitals.stMarys}`)).toBe('refused');
      expect(await subscribe(medic1, `hospital:${IDS.hospitals.riversideRegional}`)).toBe('refused');
    });

    it('hospital-status: its ED staff and crews whose team delivers to it', async () => {
      expect(await subscribe(ed1, `hospital-status:${IDS.hospitals.riversideRegional}`)).toBe('subscribed');
      expect(await subscribe(medic2, `hospital-status:${IDS.hospitals.riversideRegional}`)).toBe('subscribed');
      expect(await subscribe(medic3, `hospital-status:${IDS.hospitals.riversideRegional}`)).toBe('refused');
      expect(await subscribe(medic3, `hospital-status:${IDS.hospitals.lakesideMedical}`)).toBe('subscribed');
    });

    it('broadcast: members of the agency; user: only that user; transfer: not a stranger to it', async () => {
      expect(await subscribe(medic2, `broadcast:${IDS.agencies.riverside}`)).toBe('subscribed');
      expect(await subscribe(medic3, `broadcast:${IDS.agencies.riverside}`)).toBe('refused');
      expect(await subscribe(medic2, `user:${IDS.users.medic2}`)).toBe('subscribed');
      expect(await subscribe(medic2, `user:${IDS.users.medic1}`)).toBe('refused');
      expect(await subscribe(medic1, 'transfer:anything')).toBe('refused');
    });

    it('publishes case changes to the case and its platform hospital, never to a hospital off the platform', async () => {
      const crew = await connect(medic1);
      const board = await connect(ed1);
      crew.send({ type: 'subscribe', channel: `case:${caseId}` });
      board.send({ type: 'subscribe', channel: `hospital:${IDS.hospitals.riversideRegional}` });
      await crew.next('subscribed');
      await board.next('subscribed');
      await write('PATCH', buildPath(routes.patchCase.path, { id: caseId }), medic1, { gender: 'F' });
      const onCase = await crew.next('message', (m) => m.channel === `case:${caseId}`);
      expect(onCase.event).toMatchObject({ type: 'case.updated', data: { caseId } });
      const onBoard = await board.next('message');
      expect(onBoard.event).toMatchObject({ type: 'case.updated', data: { caseId } });

      await write('PATCH', buildPath(routes.patchCase.path, { id: valleyCaseId }), medic1, { gender: 'M' });
      const valleyHead = await t.database.db
        .selectFrom('realtime_channels')
        .select('seq')
        .where('channel', '=', `hospital:${IDS.hospitals.valleyCommunity}`)
        .executeTakeFirst();
      expect(valleyHead).toBeUndefined();
    });

    it("a destination change ends the old hospital's case: subscriptions, and the new hospital may subscribe", async () => {
      const movedId = await startCase(IDS.hospitals.riversideRegional);
      const channel = `case:${movedId}`;
      await addUser(t, 'ed-st-marys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
      const [oldBoard, crew, newBoard] = await Promise.all([
        connect(ed1),
        connect(medic1),
        connect(await t.signIn('ed-st-marys')),
      ]);
      for (const socket of [oldBoard, crew]) socket.send({ type: 'subscribe', channel });
      oldBoard.send({ type: 'subscribe', channel: `hospital:${IDS.hospitals.riversideRegional}` });
      await oldBoard.next('subscribed', (f) => f.channel === channel);
      await oldBoard.next('subscribed', (f) => f.channel !== channel);
      await crew.next('subscribed');

      await write('PATCH', buildPath(routes.patchCase.path, { id: movedId }), medic1, {
        destinationHospital: IDS.hospitals.stMarys,
      });
      expect(await oldBoard.next('error', (f) => f.channel === channel)).toEqual({
        type: 'error',
        channel,
        message: 'You no longer have access to this channel.',
      });
      // Neither the change itself nor a later one reaches the old hospital; the crew gets both.
      await crew.next('message', (m) => m.channel === channel);
      await write('PATCH', buildPath(routes.patchCase.path, { id: movedId }), medic1, { gender: 'F' });
      await crew.next('message', (m) => m.channel === channel);
      oldBoard.send({ type: 'ping' });
      await oldBoard.next('pong');
      expect(oldBoard.frames.filter((f) => f.type === 'message' && f.channel === channel)).toEqual([]);
      expect(crew.frames.filter((f) => f.type === 'error')).toEqual([]);

      newBoard.send({ type: 'subscribe', channel });
      expect((await newBoard.next('subscribed')).channel).toBe(channel);
      oldBoard.send({ type: 'subscribe', channel });
      expect((await oldBoard.next('error', (f) => f.channel === channel)).message).toBe(
        'Not allowed to subscribe to this channel.',
      );
    });
  });

  describe('sequence numbers and catch-up', () => {
    it('gives concurrent publishes on one channel distinct, gapless numbers', async () => {
      const channel = `user:${IDS.users.medic3}`;
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => t.app.realtime.publish(channel, { type: 'test', data: i })),
      );
      const seqs = results.map((r) => r.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('a reconnect with lastSeq gets exactly the missed messages in order, then live ones', async () => {
      const channel = `user:${IDS.users.medic1}`;
      const first = await connect(medic1);
      first.send({ type: 'subscribe', channel });
      const { seq: start } = await first.next('subscribed');
      for (let i = 1; i <= 3; i++) await t.app.realtime.publish(channel, { type: 'test', data: { n: i } });
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await first.next('message'));
      expect(seen.map((m) => m.seq)).toEqual([start + 1, start + 2, start + 3]);
      first.close();
      await first.closed;

      // Missed while away: 4..8. Published meanwhile during the catch-up: 9..13.
      for (let i = 4; i <= 8; i++) await t.app.realtime.publish(channel, { type: 'test', data: { n: i } });
      const again = await connect(medic1);
      again.send({ type: 'subscribe', channel, lastSeq: start + 3 });
      const during = Promise.all(
        Array.from({ length: 5 }, (_, i) => t.app.realtime.publish(channel, { type: 'test', data: { n: 9 + i } })),
      );
      await during;
      const received = [];
      for (let i = 0; i < 10; i++) received.push(await again.next('message'));
      expect(received.map((m) => m.seq)).toEqual(Array.from({ length: 10 }, (_, i) => start + 4 + i));
      expect(received.slice(0, 5).map((m) => (m.event.data as { n: number }).n)).toEqual([4, 5, 6, 7, 8]);
      // When the five publishes finish before the subscription is authorised, all ten come from the
      // catch-up and `subscribed` follows one more (empty) read: wait for it rather than expect it here.
      expect((await again.next('subscribed')).channel).toBe(channel);
      // Nothing twice.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(again.frames.filter((f) => f.type === 'message')).toEqual([]);
    });
  });

  describe('limits', () => {
    it('closes a client that answers no pings within two heartbeats', async () => {
      const silent = await openAuthenticated(url, medic1, { autoPong: false });
      const started = Date.now();
      expect((await silent.closed).code).toBe(REALTIME_CLOSE.heartbeatTimeout);
      expect(Date.now() - started).toBeLessThanOrEqual(HEARTBEAT_MS * 2 + 300);
      const lively = await connect(medic1);
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 3));
      lively.send({ type: 'ping' });
      await lively.next('pong');
    });

    it('closes with 4413 on a frame over the size limit', async () => {
      const client = await connect(medic1);
      client.sendRaw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(MAX_FRAME) }));
      expect((await client.closed).code).toBe(REALTIME_CLOSE.tooLarge);
    });

    it('closes with 4429 when frames come faster than the rate', async () => {
      const client = await connect(medic1);
      for (let i = 0; i < RATE * 3; i++) client.send({ type: 'ping' });
      expect((await client.closed).code).toBe(REALTIME_CLOSE.rateLimited);
    });

    it('answers a bad frame with an error and stays open', async () => {
      const client = await connect(medic1);
      client.sendRaw('{"type":"subscribe","channel":"nope"}');
      expect(await client.next('error')).toMatchObject({ message: expect.any(String) });
      client.send({ type: 'ping' });
      await client.next('pong');
    });

    it('answers control characters in a frame with an error naming the field (the contract rule)', async () => {
      const client = await connect(medic1);
      client.sendRaw('{"type":"subscribe","channel":"case:\\u0000x"}');
      expect(await client.next('error')).toMatchObject({
        message: 'frame.channel: control characters are not allowed',
      });
      client.send({ type: 'ping' });
      await client.next('pong');
    });
  });

  describe('origin', () => {
    it('refuses the upgrade from a foreign origin; allows its own host and the configured ones', async () => {
      await expect(openSocket(url, { origin: 'https://evil.example.com' })).rejects.toThrow(/403/);
      (await openSocket(url, { origin })).close();
      (await openSocket(url, { origin: 'https://console.example.org' })).close();
    });
  });

  describe('GET /secret', () => {
    it('tells a signed-in user how to connect; 401 without a token', async () => {
      const res = await t.get(routes.realtimeSecret.path, medic1);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        realtime: { path: '/realtime', heartbeatMs: HEARTBEAT_MS },
        chat: { subscribe: 'case:{caseId}' },
        api: { subscribe: `user:${IDS.users.medic1}` },
      });
      expect((await t.get(routes.realtimeSecret.path)).statusCode).toBe(401);
    });
  });
});
