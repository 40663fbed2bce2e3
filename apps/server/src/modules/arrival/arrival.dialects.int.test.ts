/**
 * Issue 15 items 2–4 through the API: arrival by the geofence (once), by the ED and by the crew's
 * close; the ED's acceptance of the hand-over, which the crew and the board see; the offload report
 * that counts it; a diversion, the crew's new destination, both hospitals' boards; bad input named.
 * Once per database dialect (the upsert of the settings, the report's reads).
 */
import {
  ARRIVAL_DWELL_SECONDS,
  ArrivalStateResponse,
  BoardCaseDetail,
  BoardResponse,
  Case,
  DivertedAwayResponse,
  OffloadReport,
  buildPath,
  routes,
} from '@inbound/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
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
/** Riverside Regional's location in the demo data. */
const BAY = { latitude: 41.4993, longitude: -81.6944 };
const p = (name: keyof typeof routes, params: Record<string, string>) => buildPath(routes[name].path, params);

const dialects = await testDialects();

describe.each(dialects)('arrival, hand-over and diversion on %s', (dialect) => {
  let t: TestApp;
  let medic: string;
  let ed: string;
  let edStMarys: string;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic, ed, edStMarys, admin] = await signInAll(t, ['medic1', 'ed1', 'edstmarys', 'admin']);
  });
  afterAll(() => t.close());

  async function newCase(hospitalId = RIVERSIDE): Promise<string> {
    const { id } = await startCase(t, medic, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic, id, hospitalId);
    return id;
  }
  const at = (seconds: number) => new Date(t.clock.now().getTime() + seconds * 1000).toISOString();
  async function report(caseId: string, point: { latitude: number; longitude: number }, recordedAt: string) {
    const res = await send(t, 'POST', `/v4/twiageCases/${caseId}/locationUpdates`, medic, {
      body: { ...point, accuracy: 8, recordedAt },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const board = async (hospitalId: string, token: string) =>
    BoardResponse.parse((await send(t, 'GET', p('inboundBoard', { id: hospitalId }), token, { key: null })).json());
  const crewCase = async (caseId: string) =>
    Case.parse((await send(t, 'GET', `/v4/twiageCases/${caseId}`, medic, { key: null })).json());
  /** The case's recorded events of a kind (committed: the answer went out after the commit). */
  const recorded = async (caseId: string, type: string) =>
    t.database.db
      .selectFrom('case_events')
      .select('seq')
      .where('case_id', '=', caseId)
      .where('type', '=', type)
      .execute();
  const arrivalEvents = (caseId: string) => recorded(caseId, 'arrivedAtDestination');
  /** What the outbox relay has published on a channel (it runs after the commit: poll). */
  const lastOn = async (channel: string) => (await published(t, channel, 'case.updated')).at(-1)?.data;

  it('marks the arrival once when the truck stays in the geofence, not when it passes by', async () => {
    const caseId = await newCase();
    const east = (metres: number) => ({ ...BAY, longitude: BAY.longitude + metres / 83_500 });
    await report(caseId, east(2_000), at(-300)); // on the way
    await report(caseId, east(60), at(-200)); // drives past the fence…
    await report(caseId, east(900), at(-150)); // …and on: the visit ends
    await report(caseId, east(40), at(-100)); // back, into the bay
    await report(caseId, east(180), at(-80)); // GPS jitter out of the radius, inside the hysteresis band
    expect((await crewCase(caseId)).arrival ?? null).toBeNull();
    await report(caseId, east(20), at(-100 + ARRIVAL_DWELL_SECONDS));
    await report(caseId, east(25), at(-100 + ARRIVAL_DWELL_SECONDS + 15));
    const arrival = (await crewCase(caseId)).arrival;
    expect(arrival).toMatchObject({ source: 'geofence', at: at(-100 + ARRIVAL_DWELL_SECONDS), byName: null });
    expect(await arrivalEvents(caseId)).toHaveLength(1);
    const card = (await board(RIVERSIDE, ed)).open.find((c) => c.id === caseId);
    expect(card?.arrival).toMatchObject({ source: 'geofence' });
    expect(card?.handoff).toBeNull();
  });

  it('the ED accepts the hand-over in one tap; the crew and the board see who; the report counts it', async () => {
    const caseId = await newCase();
    const arrived = await send(t, 'POST', p('markArrived', { id: RIVERSIDE, caseId }), ed);
    expect(arrived.statusCode, arrived.body).toBe(200);
    expect(ArrivalStateResponse.parse(arrived.json()).arrival).toMatchObject({
      source: 'hospital',
      byName: 'Taylor Brooks',
    });
    t.clock.advance(42 * 60_000);
    const res = await send(t, 'POST', p('acceptHandoff', { id: RIVERSIDE, caseId }), ed);
    expect(res.statusCode, res.body).toBe(200);
    const state = ArrivalStateResponse.parse(res.json());
    expect(state.handoff).toEqual({ byName: 'Taylor Brooks', at: t.clock.now().toISOString() });
    // A second tap (or a colleague's) answers the first acceptance.
    t.clock.advance(60_000);
    const again = ArrivalStateResponse.parse(
      (await send(t, 'POST', p('acceptHandoff', { id: RIVERSIDE, caseId }), ed)).json(),
    );
    expect(again.handoff).toEqual(state.handoff);
    expect((await crewCase(caseId)).handoff).toEqual(state.handoff);
    expect(await recorded(caseId, 'handoffAccepted')).toHaveLength(1);
    await expect.poll(() => lastOn(`case:${caseId}`)).toMatchObject({ event: { type: 'handoffAccepted' } });
    // The crew closes afterwards: no second arrival.
    const close = await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic, {
      body: { arrivedAt: t.clock.now().toISOString() },
    });
    expect(close.statusCode, close.body).toBe(200);
    expect(await arrivalEvents(caseId)).toHaveLength(1);

    const day = t.clock.now().toISOString().slice(0, 10);
    const r = await send(t, 'GET', `${p('offloadReport', { id: RIVERSIDE })}?from=${day}&to=${day}&tz=UTC`, ed);
    expect(r.statusCode, r.body).toBe(200);
    const rep = OffloadReport.parse(r.json());
    const row = rep.cases.find((c) => c.caseId === caseId);
    expect(row).toMatchObject({ offloadMinutes: 42, handoffByName: 'Taylor Brooks', arrivalSource: 'hospital' });
    expect(row?.leadMinutes).not.toBeNull();
    expect(rep.byDay).toHaveLength(1);
    expect(rep.total.arrivals).toBeGreaterThanOrEqual(1);
    expect(rep.byHour).toHaveLength(24);
  });

  it("the crew's close is an arrival; hand-over after the close still works", async () => {
    const caseId = await newCase();
    const closedAt = t.clock.now().toISOString();
    expect(
      (await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, medic, { body: { arrivedAt: closedAt } })).statusCode,
    ).toBe(200);
    const card = (await board(RIVERSIDE, ed)).history.find((c) => c.id === caseId);
    expect(card?.arrival).toMatchObject({ source: 'crew', at: closedAt });
    const res = await send(t, 'POST', p('acceptHandoff', { id: RIVERSIDE, caseId }), ed);
    expect(res.statusCode, res.body).toBe(200);
    expect(ArrivalStateResponse.parse(res.json()).handoff?.byName).toBe('Taylor Brooks');
  });

  it('diverts: the crew is told why, chooses another hospital; the old board says where it went, the new one has the case with its history', async () => {
    const caseId = await newCase();
    const res = await send(t, 'POST', p('divertCase', { id: RIVERSIDE, caseId }), ed, {
      body: { reason: '  CT scanner down ' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ArrivalStateResponse.parse(res.json()).diversion).toMatchObject({
      reason: 'CT scanner down',
      byName: 'Taylor Brooks',
    });
    await expect
      .poll(() => lastOn(`case:${caseId}`))
      .toMatchObject({
        event: {
          type: 'diverted',
          payload: { reason: 'CT scanner down', hospitalName: 'Riverside Regional Medical Center' },
        },
      });
    expect((await crewCase(caseId)).diversion?.reason).toBe('CT scanner down');
    expect((await board(RIVERSIDE, ed)).open.find((c) => c.id === caseId)?.diversion?.reason).toBe('CT scanner down');

    await setDestination(t, medic, caseId, ST_MARYS);
    expect((await crewCase(caseId)).diversion ?? null).toBeNull();
    expect((await board(RIVERSIDE, ed)).open.some((c) => c.id === caseId)).toBe(false);
    const away = DivertedAwayResponse.parse(
      (await send(t, 'GET', p('divertedAway', { id: RIVERSIDE }), ed, { key: null })).json(),
    );
    expect(away.divertedAway.find((d) => d.caseId === caseId)).toMatchObject({
      toHospitalName: "St. Mary's Hospital",
      reason: 'CT scanner down',
    });
    // The old hospital reads the case no more; the new one reads all of it, its history included.
    expect((await send(t, 'GET', p('inboundCase', { id: RIVERSIDE, caseId }), ed, { key: null })).statusCode).toBe(404);
    const detail = await send(t, 'GET', p('inboundCase', { id: ST_MARYS, caseId }), edStMarys, { key: null });
    expect(detail.statusCode, detail.body).toBe(200);
    const types = BoardCaseDetail.parse(detail.json()).timeline.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['caseStarted', 'hospital', 'diverted']));
    await expect
      .poll(() => lastOn(`hospital:${RIVERSIDE}`))
      .toMatchObject({
        caseId,
        card: null,
        event: { payload: { destinationName: "St. Mary's Hospital" } },
      });
  });

  it('refuses a diversion after arrival (409) and names the field of bad input (400)', async () => {
    const caseId = await newCase();
    expect((await send(t, 'POST', p('markArrived', { id: RIVERSIDE, caseId }), ed)).statusCode).toBe(200);
    const late = await send(t, 'POST', p('divertCase', { id: RIVERSIDE, caseId }), ed, { body: { reason: 'Full' } });
    expect(expectClientError(late, 409).message).toMatch(/arrived/);
    const empty = await send(t, 'POST', p('divertCase', { id: RIVERSIDE, caseId }), ed, { body: { reason: ' ' } });
    expect(expectClientError(empty, 400).message).toMatch(/reason/);
    const radius = await send(t, 'PUT', p('updateArrivalSettings', { id: RIVERSIDE }), admin, {
      body: { arrivalRadiusM: 5, offloadAlertMinutes: 30 },
    });
    expect(expectClientError(radius, 400).message).toMatch(/arrivalRadiusM/);
    const range = await send(t, 'GET', `${p('offloadReport', { id: RIVERSIDE })}?from=2026-11-20&to=2026-11-01`, ed, {
      key: null,
    });
    expect(expectClientError(range, 400).message).toMatch(/from/);
    const zone = await send(
      t,
      'GET',
      `${p('offloadReport', { id: RIVERSIDE })}?from=2026-11-01&to=2026-11-02&tz=Mars%2FOlympus`,
      ed,
      { key: null },
    );
    expect(expectClientError(zone, 400).message).toMatch(/tz/);
    const long = await send(t, 'GET', `${p('offloadReport', { id: RIVERSIDE })}?from=2026-01-01&to=2026-11-02`, ed, {
      key: null,
    });
    expect(expectClientError(long, 400).message).toMatch(/to/);
  });

  it('does not let fixes stamped in the future run the dwell ahead', async () => {
    const caseId = await newCase();
    await report(caseId, BAY, at(0));
    await report(caseId, BAY, at(ARRIVAL_DWELL_SECONDS * 3)); // a wrong clock, or a forged stamp
    expect((await crewCase(caseId)).arrival ?? null).toBeNull();
    t.clock.advance(ARRIVAL_DWELL_SECONDS * 1000);
    await report(caseId, BAY, at(0));
    expect((await crewCase(caseId)).arrival?.source).toBe('geofence');
  });

  it('uses the radius the admin set', async () => {
    const set = await send(t, 'PUT', p('updateArrivalSettings', { id: RIVERSIDE }), admin, {
      body: { arrivalRadiusM: 400, offloadAlertMinutes: 20 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const caseId = await newCase();
    const near = { ...BAY, longitude: BAY.longitude + 300 / 83_500 }; // 300 m: outside 150, inside 400
    await report(caseId, near, at(-ARRIVAL_DWELL_SECONDS));
    await report(caseId, near, at(0));
    expect((await crewCase(caseId)).arrival?.source).toBe('geofence');
    const read = await send(t, 'GET', p('arrivalSettings', { id: RIVERSIDE }), ed, { key: null });
    expect(read.json()).toEqual({ arrivalRadiusM: 400, offloadAlertMinutes: 20 });
  });
});
