/**
 * Dispatch cancel (issue 15 item 6): the hospital cancels a dispatch no crew has loaded; the crews'
 * Message Center gets the broadcast again, marked cancelled (live and in its list); a crew can no
 * longer load it; a claimed dispatch cannot be cancelled; other hospitals and crews may not cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BroadcastMessage,
  BroadcastsResponse,
  buildPath,
  CreateDispatchResponse,
  DispatchedCase,
  dispatchMessages,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addUser, published, RIVERSIDE_TRUCK, send, signInAll } from '../../test/crew-api.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const cancelPath = (dispatchId: string, id = RIVERSIDE) => buildPath(routes.cancelDispatch.path, { id, dispatchId });

describe('dispatch cancel', () => {
  let t: TestApp;
  let ed1: string, medic1: string, edStMarys: string;

  async function dispatched(): Promise<CreateDispatchResponse> {
    const res = await send(t, 'POST', buildPath(routes.createDispatch.path, { id: RIVERSIDE }), ed1, {
      body: { emsAgencyId: IDS.agencies.riverside, notes: 'Fall at home', urgent: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    return CreateDispatchResponse.parse(res.json());
  }

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [ed1, medic1, edStMarys] = await signInAll(t, ['ed1', 'medic1', 'edstmarys']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('cancels an unclaimed dispatch: marked for the crews (live and listed), no longer loadable; repeats answer the same', async () => {
    const { dispatch, broadcast } = await dispatched();
    expect((await send(t, 'POST', cancelPath(dispatch._id), medic1, { key: null })).statusCode).toBe(403);
    expect((await send(t, 'POST', cancelPath(dispatch._id), edStMarys, { key: null })).statusCode).toBe(403);
    expect((await send(t, 'POST', cancelPath('no-such-dispatch'), ed1, { key: null })).statusCode).toBe(404);

    const res = await send(t, 'POST', cancelPath(dispatch._id), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const cancelled = DispatchedCase.parse(res.json());
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled?.byName).toBe('Taylor Brooks');
    const again = DispatchedCase.parse((await send(t, 'POST', cancelPath(dispatch._id), ed1, { key: null })).json());
    expect(again.cancelled?.at).toBe(cancelled.cancelled?.at);

    // The crews' channel carries the broadcast again, marked; their list says so too.
    const live = (await published(t, `broadcast:${IDS.agencies.riverside}`, 'broadcast.message')).map((e) =>
      BroadcastMessage.parse(e.data),
    );
    expect(live.filter((m) => m._id === broadcast._id).map((m) => m.cancelledAt ?? null)).toEqual([
      null,
      cancelled.cancelled?.at,
    ]);
    const list = BroadcastsResponse.parse((await send(t, 'GET', routes.broadcasts.path, medic1, { key: null })).json());
    expect(list.data.find((m) => m._id === broadcast._id)?.cancelledAt).toBe(cancelled.cancelled?.at);

    const claim = await send(
      t,
      'POST',
      buildPath(routes.claimDispatch.path, { caseNumber: dispatch.caseNumber }),
      medic1,
      {
        key: null,
        body: { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK },
      },
    );
    expect(claim.statusCode).toBe(404);
    expect(dispatchMessages.cancelled).toBe('Cancelled by the hospital');
  });

  it('refuses to cancel a dispatch a crew has loaded (409, said why)', async () => {
    const { dispatch } = await dispatched();
    const claim = await send(
      t,
      'POST',
      buildPath(routes.claimDispatch.path, { caseNumber: dispatch.caseNumber }),
      medic1,
      {
        key: null,
        body: { emsAgencyId: IDS.agencies.riverside, truckId: RIVERSIDE_TRUCK },
      },
    );
    expect(claim.statusCode, claim.body).toBe(200);
    const res = await send(t, 'POST', cancelPath(dispatch._id), ed1, { key: null });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toBe(dispatchMessages.alreadyClaimed);
  });
});
