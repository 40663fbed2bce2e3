import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastMessage, BroadcastsResponse, routes, serverMessages } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { addUser, published, send, signInAll } from '../../test/crew-api.js';

describe('sending broadcasts', () => {
  let t: TestApp;
  let ed1: string;
  let admin: string;
  let medic2: string;
  let medic3: string;
  let edStMarys: string;

  // A fresh Idempotency-Key each time unless one is given (null: none).
  const sendBroadcast = (token: string | null, body: unknown, key?: string | null) =>
    send(t, 'POST', routes.sendBroadcast.path, token, { body, ...(key !== undefined ? { key } : {}) });
  const storedWith = (content: string) =>
    t.database.db.selectFrom('broadcasts').select('id').where('content', '=', content).execute();

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [ed1, admin, medic2, medic3, edStMarys] = await signInAll(t, ['ed1', 'admin', 'medic2', 'medic3', 'edstmarys']);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await sendBroadcast(null, {}), 401);
  });

  it('stores an urgent broadcast from the ED, publishes it live, and lists it newest first for the crews', async () => {
    t.clock.advance(60_000);
    const res = await sendBroadcast(ed1, {
      hospitalId: IDS.hospitals.riversideRegional,
      emsAgencyIds: [IDS.agencies.riverside],
      content: 'Cath lab back online.',
      urgent: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = BroadcastMessage.parse(res.json());
    expect(sent).toMatchObject({
      senderOrganizationName: 'Riverside Regional Medical Center',
      urgent: true,
      type: null,
      caseNumber: null,
      emsAgencies: [IDS.agencies.riverside],
    });
    const live = await published(t, `broadcast:${IDS.agencies.riverside}`, 'broadcast.message');
    expect(live.map((e) => BroadcastMessage.parse(e.data)._id)).toEqual([sent._id]);
    const list = BroadcastsResponse.parse((await send(t, 'GET', routes.broadcasts.path, medic2, { key: null })).json());
    expect(list.data[0]?._id).toBe(sent._id);
    const other = BroadcastsResponse.parse(
      (await send(t, 'GET', routes.broadcasts.path, medic3, { key: null })).json(),
    );
    expect(other.data.map((b) => b._id)).not.toContain(sent._id);
  });

  it('sends an emsDispatch broadcast with its case number to several agencies, each told only of itself', async () => {
    const res = await sendBroadcast(edStMarys, {
      hospitalId: IDS.hospitals.stMarys,
      emsAgencyIds: [IDS.agencies.riverside, IDS.agencies.lakeside],
      content: 'Interfacility transfer to Lakeside requested.',
      type: 'emsDispatch',
      caseNumber: '26-0042',
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = BroadcastMessage.parse(res.json());
    expect(sent).toMatchObject({ type: 'emsDispatch', caseNumber: '26-0042', urgent: false });
    const lakeside = (await published(t, `broadcast:${IDS.agencies.lakeside}`, 'broadcast.message')).map((e) =>
      BroadcastMessage.parse(e.data),
    );
    expect(lakeside.find((b) => b._id === sent._id)?.emsAgencies).toEqual([IDS.agencies.lakeside]);
  });

  it('lets an organisation admin send for any hospital', async () => {
    const res = await sendBroadcast(admin, {
      hospitalId: IDS.hospitals.lakesideMedical,
      emsAgencyIds: [IDS.agencies.lakeside],
      content: 'Trauma bay open again.',
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('takes an Idempotency-Key: a retry answers the first broadcast and sends nothing again', async () => {
    const body = {
      hospitalId: IDS.hospitals.riversideRegional,
      emsAgencyIds: [IDS.agencies.riverside],
      content: `Helipad closed (${randomUUID()})`,
    };
    expect(expectClientError(await sendBroadcast(ed1, body, null), 400).message).toBe(
      serverMessages.idempotencyKeyMissing,
    );
    expect(await storedWith(body.content)).toEqual([]);

    const key = randomUUID();
    const first = await sendBroadcast(ed1, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await sendBroadcast(ed1, body, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await storedWith(body.content)).toHaveLength(1);
    const live = (await published(t, `broadcast:${IDS.agencies.riverside}`, 'broadcast.message')).filter(
      (e) => BroadcastMessage.parse(e.data).content === body.content,
    );
    expect(live).toHaveLength(1);

    const other = { ...body, content: `${body.content} (corrected)` };
    expect(expectClientError(await sendBroadcast(ed1, other, key), 409).message).toBe(
      serverMessages.idempotencyKeyReused,
    );
    expect(await storedWith(other.content)).toEqual([]);
    // Keys are per sender: another user's request with the same key is its own broadcast.
    const byAdmin = await sendBroadcast(admin, body, key);
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expect(BroadcastMessage.parse(byAdmin.json())._id).not.toBe(BroadcastMessage.parse(first.json())._id);
  });

  it('sends one broadcast for two racing requests with the same key', async () => {
    const body = {
      hospitalId: IDS.hospitals.riversideRegional,
      emsAgencyIds: [IDS.agencies.riverside],
      content: `Racing retry (${randomUUID()})`,
    };
    const key = randomUUID();
    const answers = await Promise.all([sendBroadcast(ed1, body, key), sendBroadcast(ed1, body, key)]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    expect(new Set(answers.map((res) => BroadcastMessage.parse(res.json())._id)).size).toBe(1);
    expect(await storedWith(body.content)).toHaveLength(1);
  });

  it("refuses crews, another hospital's ED staff, agencies not delivering there, and bad input", async () => {
    const body = {
      hospitalId: IDS.hospitals.riversideRegional,
      emsAgencyIds: [IDS.agencies.riverside],
      content: 'x',
    };
    expectClientError(await sendBroadcast(medic2, body), 403);
    expectClientError(await sendBroadcast(edStMarys, body), 403);
    expect(
      expectClientError(await sendBroadcast(ed1, { ...body, emsAgencyIds: [IDS.agencies.lakeside] }), 400).message,
    ).toMatch(/emsAgencyIds/);
    expectClientError(await sendBroadcast(admin, { ...body, hospitalId: 'hospital-none' }), 404);
    expectClientError(await sendBroadcast(ed1, { ...body, content: '   ' }), 400);
    expectClientError(await sendBroadcast(ed1, { ...body, emsAgencyIds: [] }), 400);
    expectClientError(await sendBroadcast(ed1, { ...body, type: 'emsDispatch' }), 400);
    expectClientError(await sendBroadcast(ed1, { ...body, caseNumber: '26-1' }), 400);
    expectClientError(await sendBroadcast(ed1, { ...body, content: 'x'.repeat(2_001) }), 400);
    const stored = await t.database.db.selectFrom('broadcasts').select('content').where('content', '=', 'x').execute();
    expect(stored).toEqual([]);
  });
});
