import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BroadcastsResponse,
  buildPath,
  Case,
  CreateDispatchResponse,
  DISPATCH_NUMBER_PATTERN,
  DispatchesResponse,
  DispatchOptionsResponse,
  routes,
  SentBroadcastsPage,
  serverMessages,
  transferMessages,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { addUser, LAKESIDE_TRUCK, published, RIVERSIDE_TRUCK, send, signInAll } from '../../test/crew-api.js';
import { CODE_MISSES_PER_MINUTE } from '../transfers/guess-limit.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const dispatchesPath = (id: string) => buildPath(routes.createDispatch.path, { id });
const optionsPath = (id: string) => buildPath(routes.dispatchOptions.path, { id });
const sentPath = (id: string) => buildPath(routes.sentBroadcasts.path, { id });
const claimPath = (caseNumber: string) => buildPath(routes.claimDispatch.path, { caseNumber });

describe('dispatched cases', () => {
  let t: TestApp;
  let ed1: string;
  let admin: string;
  let medic1: string;
  let medic2: string;
  let medic3: string;
  let edStMarys: string;

  const dispatch = (token: string | null, body: unknown, key?: string | null, hospitalId: string = RIVERSIDE) =>
    send(t, 'POST', dispatchesPath(hospitalId), token, { body, ...(key !== undefined ? { key } : {}) });
  const claim = (token: string | null, caseNumber: string, body: unknown = riversideCrew) =>
    send(t, 'POST', claimPath(caseNumber), token, { body, key: null });
  const riversideCrew = { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK };
  const stroke = {
    emsAgencyId: IDS.agencies.riverside,
    complaintId: 'stroke',
    notes: 'Priority 1, LKW 20 min',
    urgent: true,
  };

  async function dispatched(body: unknown = stroke): Promise<CreateDispatchResponse> {
    const res = await dispatch(ed1, body);
    expect(res.statusCode, res.body).toBe(201);
    return CreateDispatchResponse.parse(res.json());
  }

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [ed1, admin, medic1, medic2, medic3, edStMarys] = await signInAll(t, [
      'ed1',
      'admin',
      'medic1',
      'medic2',
      'medic3',
      'edstmarys',
    ]);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await dispatch(null, stroke), 401);
    expectClientError(await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE })), 401);
    expectClientError(await t.get(optionsPath(RIVERSIDE)), 401);
    expectClientError(await t.get(sentPath(RIVERSIDE)), 401);
    expectClientError(await claim(null, 'QW-5238'), 401);
  });

  it('offers the delivering agencies with their complaints, to the ED staff of the hospital only', async () => {
    const options = DispatchOptionsResponse.parse((await t.get(optionsPath(RIVERSIDE), ed1)).json());
    expect(options.agencies.map((a) => a.name)).toEqual(['Riverside EMS']);
    expect(options.agencies[0]?.complaints.find((c) => c.id === 'stroke')).toMatchObject({
      name: 'Stroke',
      priority: 1,
    });
    expectClientError(await t.get(optionsPath(RIVERSIDE), edStMarys), 403);
    expectClientError(await t.get(optionsPath(RIVERSIDE), medic1), 403);
  });

  it('writes the dispatch and its emsDispatch broadcast together, announces both, and lists it awaiting a crew', async () => {
    const { dispatch: made, broadcast } = await dispatched();
    expect(made.caseNumber).toMatch(DISPATCH_NUMBER_PATTERN);
    expect(made).toMatchObject({
      hospitalId: RIVERSIDE,
      agency: { _id: IDS.agencies.riverside, name: 'Riverside EMS' },
      complaint: { id: 'stroke', name: 'Stroke', priority: 1 },
      status: 'awaitingCrew',
      urgent: true,
      claim: null,
    });
    expect(broadcast).toMatchObject({
      type: 'emsDispatch',
      caseNumber: made.caseNumber,
      urgent: true,
      senderOrganizationName: 'Riverside Regional Medical Center',
      emsAgencies: [IDS.agencies.riverside],
    });
    expect(broadcast.content).toBe(`Case ${made.caseNumber} dispatched to you: Stroke. Priority 1, LKW 20 min`);

    // The crew's Message Center has it; medic3 (Lakeside only) does not.
    const inbox = BroadcastsResponse.parse(
      (await send(t, 'GET', routes.broadcasts.path, medic2, { key: null })).json(),
    );
    expect(inbox.data.find((b) => b._id === broadcast._id)?.caseNumber).toBe(made.caseNumber);
    const other = BroadcastsResponse.parse(
      (await send(t, 'GET', routes.broadcasts.path, medic3, { key: null })).json(),
    );
    expect(other.data.map((b) => b._id)).not.toContain(broadcast._id);

    const live = await published(t, `broadcast:${IDS.agencies.riverside}`, 'broadcast.message');
    expect(live.some((e) => (e.data as { _id: string })._id === broadcast._id)).toBe(true);
    const hospital = await published(t, `hospital:${RIVERSIDE}`);
    expect(
      hospital.some((e) => e.type === 'dispatch.updated' && (e.data as { dispatchId: string }).dispatchId === made._id),
    ).toBe(true);
    expect(
      hospital.some(
        (e) => e.type === 'broadcast.sent' && (e.data as { broadcastId: string }).broadcastId === broadcast._id,
      ),
    ).toBe(true);

    const list = DispatchesResponse.parse(
      (await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), ed1)).json(),
    );
    expect(list.data.find((d) => d._id === made._id)?.status).toBe('awaitingCrew');
    // No case exists before a crew claims it.
    const cases = await t.database.db
      .selectFrom('cases')
      .select('id')
      .where('case_number', '=', made.caseNumber)
      .execute();
    expect(cases).toEqual([]);
  });

  it('is idempotent by Idempotency-Key: a retry answers the first dispatch and writes and sends nothing more', async () => {
    const key = randomUUID();
    const body = { ...stroke, notes: `retry ${randomUUID()}` };
    const first = await dispatch(ed1, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await dispatch(ed1, body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const rows = await t.database.db
      .selectFrom('case_dispatches')
      .select('id')
      .where('notes', '=', body.notes)
      .execute();
    expect(rows).toHaveLength(1);
    const sent = await t.database.db
      .selectFrom('broadcasts')
      .select('id')
      .where('content', 'like', `%${body.notes}`)
      .execute();
    expect(sent).toHaveLength(1);
    expect(expectClientError(await dispatch(ed1, { ...body, urgent: false }, key), 409).message).toBe(
      serverMessages.idempotencyKeyReused,
    );
    expect(expectClientError(await dispatch(ed1, body, null), 400).message).toBe(serverMessages.idempotencyKeyMissing);
  });

  it("authorises: ed1 yes, another hospital's ED staff, crews and no token no; an org admin yes", async () => {
    expectClientError(await dispatch(edStMarys, stroke), 403);
    expectClientError(await dispatch(medic1, stroke), 403);
    expectClientError(await dispatch(null, stroke), 401);
    const byAdmin = await dispatch(admin, stroke);
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expectClientError(await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), edStMarys), 403);
    expectClientError(await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), medic2), 403);
    expectClientError(await dispatch(admin, stroke, undefined, 'hospital-none'), 404);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const count = async () => (await t.database.db.selectFrom('case_dispatches').select('id').execute()).length;
    const before = await count();
    expect(
      expectClientError(await dispatch(ed1, { ...stroke, emsAgencyId: IDS.agencies.lakeside }), 400).message,
    ).toMatch(/emsAgencyId/);
    expect(
      expectClientError(await dispatch(ed1, { ...stroke, complaintId: 'no-such-complaint' }), 400).message,
    ).toMatch(/complaintId/);
    expect(expectClientError(await dispatch(ed1, { ...stroke, notes: 'x'.repeat(501) }), 400).message).toMatch(/notes/);
    expect(expectClientError(await dispatch(ed1, { ...stroke, urgent: 'yes' }), 400).message).toMatch(/urgent/);
    expect(expectClientError(await dispatch(ed1, { complaintId: 'stroke' }), 400).message).toMatch(/emsAgencyId/);
    expect(await count()).toBe(before);
  });

  it('hands the case to a member crew on its truck: a hospitalED case with the number, destination and complaint', async () => {
    const { dispatch: made } = await dispatched();
    const res = await claim(medic1, made.caseNumber);
    expect(res.statusCode, res.body).toBe(200);
    const loaded = Case.parse(res.json());
    expect(loaded).toMatchObject({
      caseNumber: made.caseNumber,
      type: 'hospitalED',
      ownedBy: IDS.users.medic1,
      emsAgency: IDS.agencies.riverside,
      truck: RIVERSIDE_TRUCK,
      complaint: 'stroke',
      destinationHospital: { id: RIVERSIDE },
    });
    // The crew owns it: it can write it.
    const patch = await send(t, 'PATCH', `/v4/twiageCases/${loaded.id}`, medic1, { body: { gender: 'F' } });
    expect(patch.statusCode, patch.body).toBe(200);
    // The board: the case is on it, and the dispatch says who claimed it.
    const list = DispatchesResponse.parse(
      (await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), ed1)).json(),
    );
    expect(list.data.find((d) => d._id === made._id)).toMatchObject({
      status: 'claimed',
      claim: { caseId: loaded.id, truckName: 'Medic 1', agencyName: 'Riverside EMS' },
    });
    const board = (await t.get(buildPath(routes.inboundBoard.path, { id: RIVERSIDE }), ed1)).json() as {
      open: { id: string; caseNumber: string }[];
    };
    expect(board.open.find((c) => c.id === loaded.id)?.caseNumber).toBe(made.caseNumber);
    const updates = await published(t, `hospital:${RIVERSIDE}`, 'case.updated');
    expect(updates.some((e) => (e.data as { caseId: string }).caseId === loaded.id)).toBe(true);
    // A retry by the same crew answers its case; anyone else gets the warning.
    const again = await claim(medic1, made.caseNumber);
    expect(again.statusCode).toBe(200);
    expect(Case.parse(again.json()).id).toBe(loaded.id);
    expect(expectClientError(await claim(medic2, made.caseNumber), 404).message).toBe(transferMessages.notAvailable);
    const cases = await t.database.db
      .selectFrom('cases')
      .select('id')
      .where('case_number', '=', made.caseNumber)
      .execute();
    expect(cases).toHaveLength(1);
  });

  it('gives one case to one crew when two claim at once', async () => {
    const { dispatch: made } = await dispatched();
    const answers = await Promise.all([claim(medic1, made.caseNumber), claim(medic2, made.caseNumber)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const cases = await t.database.db
      .selectFrom('cases')
      .select('id')
      .where('case_number', '=', made.caseNumber)
      .execute();
    expect(cases).toHaveLength(1);
  });

  it("answers 'Case not available for transfer.' for another agency's, unknown and badly chosen numbers", async () => {
    const { dispatch: made } = await dispatched();
    // medic3 is on Lakeside only: the dispatch went to Riverside.
    const lakesideCrew = { emsAgencyId: IDS.agencies.lakeside, truckId: LAKESIDE_TRUCK };
    expect(expectClientError(await claim(medic3, made.caseNumber, lakesideCrew), 404).message).toBe(
      transferMessages.notAvailable,
    );
    // medic1 is on both teams but has Lakeside selected: the same.
    expect(expectClientError(await claim(medic1, made.caseNumber, lakesideCrew), 404).message).toBe(
      transferMessages.notAvailable,
    );
    expect(expectClientError(await claim(medic2, 'ZZ-9999'), 404).message).toBe(transferMessages.notAvailable);
    expect(expectClientError(await claim(medic2, 'RRMC-2026-0142'), 404).message).toBe(transferMessages.notAvailable);
    // A team the user is not on, a truck of another team, ED staff: refused before any lookup.
    expectClientError(await claim(medic3, made.caseNumber), 403);
    expect(
      expectClientError(await claim(medic2, made.caseNumber, { ...riversideCrew, truckId: LAKESIDE_TRUCK }), 400)
        .message,
    ).toMatch(/truckId/);
    expectClientError(await claim(ed1, made.caseNumber), 403);
    expect(
      expectClientError(await claim(medic2, made.caseNumber, { emsAgencyId: IDS.agencies.riverside }), 400).message,
    ).toMatch(/truckId/);
    // Still there for its own crew.
    expect((await claim(medic2, made.caseNumber)).statusCode).toBe(200);
  });

  it('is not offered once the board history window has passed', async () => {
    const { dispatch: made } = await dispatched();
    // Dispatched 13 hours ago (the board keeps 12).
    await t.database.db
      .updateTable('case_dispatches')
      .set({ created_at: new Date(t.clock.now().getTime() - 13 * 3_600_000).toISOString() })
      .where('id', '=', made._id)
      .execute();
    expect(expectClientError(await claim(medic2, made.caseNumber), 404).message).toBe(transferMessages.notAvailable);
    const list = DispatchesResponse.parse(
      (await t.get(buildPath(routes.dispatches.path, { id: RIVERSIDE }), ed1)).json(),
    );
    expect(list.data.map((d) => d._id)).not.toContain(made._id);
  });

  it('limits guessing together with transfer codes', async () => {
    const guesser = await addUser(t, 'guesser', { roles: ['crew'], memberOf: [IDS.agencies.riverside] });
    expect(guesser).toBeTruthy();
    const token = await t.signIn('guesser');
    for (let i = 0; i < CODE_MISSES_PER_MINUTE; i += 1) {
      expectClientError(await claim(token, `ZZ-${2000 + i}`), 404);
    }
    expectClientError(await claim(token, 'ZZ-3333'), 429);
    // The transfer code path counts the same misses.
    const transfer = await send(t, 'POST', buildPath(routes.requestTransfer.path, { code: '123456' }), token, {
      body: riversideCrew,
      key: null,
    });
    expectClientError(transfer, 429);
  });
});

describe("a hospital's sent broadcasts", () => {
  let t: TestApp;
  let ed1: string;
  let edStMarys: string;
  let medic1: string;

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [ed1, edStMarys, medic1] = await signInAll(t, ['ed1', 'edstmarys', 'medic1']);
  });
  afterAll(() => t.close());

  it('lists what the hospital sent, newest first, with agencies by name and the sender, a page at a time', async () => {
    const contents: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1_000);
      const content = `Notice ${i}`;
      contents.push(content);
      const res = await send(t, 'POST', routes.sendBroadcast.path, ed1, {
        body: { hospitalId: RIVERSIDE, emsAgencyIds: [IDS.agencies.riverside], content, urgent: i === 2 },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const first = SentBroadcastsPage.parse((await t.get(`${sentPath(RIVERSIDE)}?limit=2`, ed1)).json());
    expect(first.data.map((b) => b.content)).toEqual(['Notice 2', 'Notice 1']);
    expect(first.data[0]).toMatchObject({
      urgent: true,
      type: null,
      agencies: [{ _id: IDS.agencies.riverside, name: 'Riverside EMS' }],
      sentByName: 'Taylor Brooks',
    });
    expect(first.nextCursor).not.toBeNull();
    const second = SentBroadcastsPage.parse(
      (await t.get(`${sentPath(RIVERSIDE)}?limit=2&cursor=${first.nextCursor ?? ''}`, ed1)).json(),
    );
    expect(second.data.map((b) => b.content)[0]).toBe('Notice 0');
    // The seeded broadcast of this hospital (from before senders were kept) is listed too, without a sender.
    const all = SentBroadcastsPage.parse((await t.get(sentPath(RIVERSIDE), ed1)).json());
    expect(all.data.map((b) => b.content).slice(0, 3)).toEqual(['Notice 2', 'Notice 1', 'Notice 0']);
  });

  it('is for the ED staff of that hospital only, and refuses a bad cursor or limit with 400', async () => {
    expectClientError(await t.get(sentPath(RIVERSIDE)), 401);
    expectClientError(await t.get(sentPath(RIVERSIDE), edStMarys), 403);
    expectClientError(await t.get(sentPath(RIVERSIDE), medic1), 403);
    expect(expectClientError(await t.get(`${sentPath(RIVERSIDE)}?cursor=nonsense`, ed1), 400).message).toMatch(
      /cursor/,
    );
    expect(expectClientError(await t.get(`${sentPath(RIVERSIDE)}?limit=0`, ed1), 400).message).toMatch(/limit/);
  });
});
