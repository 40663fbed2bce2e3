import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastMessage, BroadcastsResponse, routes } from '@inbound/contract';
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

  const sendBroadcast = (token: string | null, body: unknown) =>
    send(t, 'POST', routes.sendBroadcast.path, token, { body, key: null });

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
