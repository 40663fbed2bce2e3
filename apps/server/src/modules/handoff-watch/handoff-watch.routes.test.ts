/**
 * The crew's hand-over after the close (decision 0038): the closed case's crew gets an opaque token
 * (nothing of the case in it), follows the hand-over with it, sees who accepted; the token answers only
 * the user it was issued to, only for 2 h; bad input is named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  HANDOFF_WATCH_MS,
  HandoffWatchIssued,
  HandoffWatchStatus,
  routes,
  type RouteName,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { addUser, RIVERSIDE_TRUCK, send, setDestination, signInAll, startCase } from '../../test/crew-api.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const path = (name: RouteName, params: Record<string, string> = {}) => buildPath(routes[name].path, params);

describe('the hand-over watch after the close', () => {
  let t: TestApp;
  let medic1: string, ed1: string, otherMedic: string;

  async function caseAtRiverside(): Promise<{ id: string; caseNumber: string }> {
    const started = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, started.id, RIVERSIDE);
    return started;
  }
  const close = (caseId: string) =>
    send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic1, { body: { arrivedAt: t.clock.now().toISOString() } });
  const issue = (caseId: string, token = medic1, key?: string) =>
    send(t, 'POST', path('issueHandoffWatch', { id: caseId }), token, key ? { key } : {});
  const status = (body: unknown, token = medic1) =>
    send(t, 'POST', path('handoffWatchStatus'), token, { body, key: null });

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'othermedic', { roles: ['crew'], memberOf: [IDS.agencies.riverside] });
    [medic1, ed1, otherMedic] = await signInAll(t, ['medic1', 'ed1', 'othermedic']);
  });
  afterAll(() => t.close());

  it('gives the closed case’s crew an opaque token that shows who accepted the hand-over', async () => {
    const { id, caseNumber } = await caseAtRiverside();
    expect((await close(id)).statusCode).toBe(200);
    const res = await issue(id, medic1, 'watch-key-1');
    expect(res.statusCode, res.body).toBe(200);
    const watch = HandoffWatchIssued.parse(res.json());
    expect(watch.hospitalName).toBe('Riverside Regional Medical Center');
    expect(watch.expiresAt).toBe(new Date(t.clock.now().getTime() + HANDOFF_WATCH_MS).toISOString());
    // Nothing of the case in what the device keeps.
    expect(JSON.stringify(watch)).not.toContain(id);
    expect(JSON.stringify(watch)).not.toContain(caseNumber);
    // The outbox's retry (same idempotency key) gets the same token, not a second watch.
    expect(HandoffWatchIssued.parse((await issue(id, medic1, 'watch-key-1')).json()).token).toBe(watch.token);

    const before = HandoffWatchStatus.parse((await status({ token: watch.token })).json());
    expect(before).toEqual({ hospitalName: watch.hospitalName, expiresAt: watch.expiresAt, handoff: null });

    t.clock.advance(12 * 60_000);
    expect((await send(t, 'POST', path('acceptHandoff', { id: RIVERSIDE, caseId: id }), ed1)).statusCode).toBe(200);
    const after = HandoffWatchStatus.parse((await status({ token: watch.token })).json());
    expect(after.handoff).toEqual({ byName: 'Taylor Brooks', at: t.clock.now().toISOString() });

    // Only to the user it was issued to, and only for 2 h: anything else is the same 404.
    expect((await status({ token: watch.token }, otherMedic)).statusCode).toBe(404);
    expect((await status({ token: watch.token }, ed1)).statusCode).toBe(404);
    expect((await status({ token: `${watch.token}x` })).statusCode).toBe(404);
    t.clock.advance(HANDOFF_WATCH_MS);
    expect((await status({ token: watch.token })).statusCode).toBe(404);
  });

  it('is for the crew of a closed case with a destination on the platform; bad input is named', async () => {
    const open = await caseAtRiverside();
    expect(expectClientError(await issue(open.id), 409).message).toMatch(/not closed/);
    expect((await close(open.id)).statusCode).toBe(200);
    expect([403, 404]).toContain((await issue(open.id, ed1)).statusCode);
    expect([403, 404]).toContain((await issue(open.id, otherMedic)).statusCode);

    const nowhere = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    expect((await close(nowhere.id)).statusCode).toBe(200);
    expect(expectClientError(await issue(nowhere.id), 409).message).toMatch(/no destination/);

    expect(expectClientError(await status({ token: ' ' }), 400).message).toMatch(/token/);
    expect(expectClientError(await status({}), 400).message).toMatch(/token/);
    expect(expectClientError(await status({ token: 'x'.repeat(101) }), 400).message).toMatch(/token/);
  });
});
