import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  Case,
  CaseChangeResponse,
  CreateCaseResponse,
  MonitorIntegrationResponse,
  routes,
  serverMessages,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { CASE_NUMBER_PATTERN } from './case-number.js';

const RIVERSIDE_TRUCK = 'truck-riverside-medic-1';
const LAKESIDE_TRUCK = 'truck-lakeside-rescue-7';
const CLIENT_TIME = '2026-11-21T11:59:30.000Z';
const TAG = {
  lastKnownWell: 'stroke.onset.last-known-well',
  wakeUp: 'stroke.onset.wake-up-stroke',
  left: 'stroke.deficits.left',
  right: 'stroke.deficits.right',
  bloodGlucose: 'stroke.vitals-labs.blood-glucose',
  stemiAspirin: 'stemi.treatment.aspirin-324-mg-giv',
};

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

const casePath = (id: string) => buildPath(routes.getCase.path, { id });
const tagsPath = (id: string, tagId: string) =>
  `${buildPath(routes.addCaseTag.path, { id })}?tagId=${encodeURIComponent(tagId)}`;
const valuesPath = (id: string, tagId: string) => buildPath(routes.caseTagValues.path, { id, tagId });
const formPath = (id: string, formId: string = IDS.patientInfoForm) =>
  buildPath(routes.caseDynamicForm.path, { id, formId });
const monitorPath = (caseId: string, type = 'lifepak') => buildPath(routes.monitorIntegration.path, { type, caseId });
const locationPath = (id: string) => buildPath(routes.caseLocation.path, { id });
const feedbackPath = (id: string) => buildPath(routes.caseFeedback.path, { id });

describe('cases routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic2: string;
  let medic3: string;

  /** A request as the crew app's outbox sends it: token, Created-At and (by default) a fresh key. */
  function send(
    method: Method,
    url: string,
    token: string | null,
    body?: unknown,
    key: string | null = randomUUID(),
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { 'created-at': CLIENT_TIME };
    if (token) headers.authorization = authorizationHeader(token);
    if (key !== null) headers['idempotency-key'] = key;
    return t.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as object } : {}) });
  }

  async function startCase(token = medic1, emsAgency: string = IDS.agencies.riverside, truck = RIVERSIDE_TRUCK) {
    const res = await send('POST', `/v4/twiageCases?placeholder-${Date.now()}`, token, {
      emsAgency,
      truck,
      beganAt: '2026-11-21T11:58:00.000Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    return CreateCaseResponse.parse(res.json());
  }

  async function caseWithComplaint(complaint = 'stroke') {
    const created = await startCase();
    expect((await send('PATCH', casePath(created.id), medic1, { complaint })).statusCode).toBe(200);
    return created.id;
  }

  const readCase = async (id: string, token = medic1) => {
    const res = await send('GET', `${casePath(id)}?uniquevalue&rawDataEnabledTags=true`, token, undefined, null);
    expect(res.statusCode, res.body).toBe(200);
    return Case.parse(res.json());
  };

  /** Every row a case write could add, so a refused write can be shown to have written nothing. */
  async function rowCounts() {
    const count = async (
      table: 'cases' | 'case_events' | 'case_tags' | 'case_tag_values' | 'case_idempotency_keys' | 'case_feedback',
    ) =>
      Number(
        (
          await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      cases: await count('cases'),
      events: await count('case_events'),
      tags: await count('case_tags'),
      values: await count('case_tag_values'),
      keys: await count('case_idempotency_keys'),
      feedback: await count('case_feedback'),
    };
  }

  /** Runs the request and checks it was refused with `status` and wrote nothing at all. */
  async function expectRefused(
    request: () => Promise<LightMyRequestResponse>,
    status: number,
    message?: RegExp | string,
  ) {
    const before = await rowCounts();
    const error = expectClientError(await request(), status);
    if (message !== undefined) expect(error.message).toMatch(message);
    expect(await rowCounts()).toEqual(before);
    return error;
  }

  const events = (caseId: string) =>
    t.database.db.selectFrom('case_events').selectAll().where('case_id', '=', caseId).orderBy('seq').execute();

  beforeAll(async () => {
    t = await createTestApp();
    [medic1, medic2, medic3] = await Promise.all([t.signIn('medic1'), t.signIn('medic2'), t.signIn('medic3')]);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    const created = await startCase();
    const id = created.id;
    const calls: [Method, string, unknown][] = [
      [
        'POST',
        '/v4/twiageCases?placeholder-1',
        { emsAgency: IDS.agencies.riverside, truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME },
      ],
      ['GET', casePath(id), undefined],
      ['PATCH', casePath(id), { gender: 'F' }],
      ['POST', locationPath(id), { latitude: 41.5, longitude: -81.7 }],
      ['POST', tagsPath(id, TAG.left), undefined],
      ['DELETE', tagsPath(id, TAG.left), undefined],
      ['PATCH', valuesPath(id, TAG.bloodGlucose), { fields: [] }],
      ['PUT', formPath(id), { fields: [] }],
      ['PATCH', monitorPath(id), { monitorId: 'm', patientId: '1' }],
      ['POST', feedbackPath(id), { rating: 5, notes: '', type: 'ems' }],
    ];
    for (const [method, url, body] of calls) {
      await expectRefused(() => send(method, url, null, body), 401);
    }
  });

  describe('POST /v4/twiageCases', () => {
    it('starts a case: id, a radio-friendly case number, channel, owner, time; caseStarted is event 1', async () => {
      const res = await send('POST', '/v4/twiageCases?placeholder-1732200000000', medic1, {
        emsAgency: IDS.agencies.riverside,
        truck: RIVERSIDE_TRUCK,
        beganAt: '2026-11-21T06:58:00.000-05:00',
      });
      expect(res.statusCode).toBe(201);
      const created = CreateCaseResponse.parse(res.json());
      expect(created.caseNumber).toMatch(CASE_NUMBER_PATTERN);
      expect(created.channelId).toBe(`case:${created.id}`);
      expect(created.ownedBy).toBe(IDS.users.medic1);
      expect(created.createdAt).toBe(t.clock.now().toISOString());

      const row = await t.database.db
        .selectFrom('cases')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.placeholder_id).toBe('placeholder-1732200000000');
      expect(row.began_at).toBe('2026-11-21T11:58:00.000Z');
      const [started, ...rest] = await events(created.id);
      expect(rest).toEqual([]);
      expect(started).toMatchObject({
        seq: 1,
        type: 'caseStarted',
        actor_user_id: IDS.users.medic1,
        client_created_at: CLIENT_TIME,
        created_at: created.createdAt,
      });

      const read = await readCase(created.id);
      expect(read).toMatchObject({
        caseNumber: created.caseNumber,
        type: 'emsED',
        emsAgency: IDS.agencies.riverside,
        truck: RIVERSIDE_TRUCK,
        complaint: null,
        complaintSet: 'Standard ALS/BLS 2026',
        tags: [],
        age: null,
        agePeriod: 3,
        gender: null,
        closedAt: null,
        arrivedAt: null,
        destinationHospital: null,
        monitorIntegration: null,
        patientInfo: [],
        lastLocation: null,
      });
    });

    it('also takes the placeholder as ?placeholderId= (the crew outbox form)', async () => {
      const res = await send('POST', '/v4/twiageCases?placeholderId=placeholder-42', medic1, {
        emsAgency: IDS.agencies.riverside,
        truck: RIVERSIDE_TRUCK,
        beganAt: CLIENT_TIME,
      });
      const { id } = CreateCaseResponse.parse(res.json());
      const row = await t.database.db
        .selectFrom('cases')
        .select('placeholder_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.placeholder_id).toBe('placeholder-42');
    });

    it('answers a repeated key with the first answer and starts no second case; another body → 409', async () => {
      const key = randomUUID();
      const body = { emsAgency: IDS.agencies.riverside, truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME };
      const first = await send('POST', '/v4/twiageCases?placeholder-7', medic1, body, key);
      const before = await rowCounts();
      const again = await send('POST', '/v4/twiageCases?placeholder-7', medic1, body, key);
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await rowCounts()).toEqual(before);
      const other = await expectRefused(
        () => send('POST', '/v4/twiageCases?placeholder-7', medic1, { ...body, truck: 'truck-riverside-medic-2' }, key),
        409,
        serverMessages.idempotencyKeyReused,
      );
      expect(other.code).toBe('idempotency_key_reused');
    });

    it('requires an Idempotency-Key that looks like a UUID', async () => {
      const body = { emsAgency: IDS.agencies.riverside, truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME };
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, body, null),
        400,
        serverMessages.idempotencyKeyMissing,
      );
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, body, 'not a key!'),
        400,
        serverMessages.idempotencyKeyInvalid,
      );
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, body, 'a'.repeat(101)),
        400,
        serverMessages.idempotencyKeyInvalid,
      );
    });

    it("refuses another team (403), an unknown team (404), another team's truck and bad input (400)", async () => {
      const body = { emsAgency: IDS.agencies.riverside, truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME };
      await expectRefused(() => send('POST', '/v4/twiageCases', medic3, body), 403);
      await expectRefused(() => send('POST', '/v4/twiageCases', medic1, { ...body, emsAgency: 'agency-nowhere' }), 404);
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, { ...body, truck: LAKESIDE_TRUCK }),
        400,
        /truck/,
      );
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, { ...body, beganAt: 'yesterday' }),
        400,
        /beganAt/,
      );
      await expectRefused(
        () => send('POST', '/v4/twiageCases', medic1, { truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME }),
        400,
        /emsAgency/,
      );
      // An administrator of a team (medic1 administers Hilltop) may start a case there.
      expect((await startCase(medic1, IDS.agencies.hilltop, 'truck-hilltop-1')).ownedBy).toBe(IDS.users.medic1);
    });

    it('writes exactly one case when the same request races itself', async () => {
      const key = randomUUID();
      const body = { emsAgency: IDS.agencies.riverside, truck: RIVERSIDE_TRUCK, beganAt: CLIENT_TIME };
      const before = await rowCounts();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => send('POST', '/v4/twiageCases?placeholder-9', medic1, body, key)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      const after = await rowCounts();
      expect(after.cases - before.cases).toBe(1);
      expect(after.events - before.events).toBe(1);
    });
  });

  describe('GET /v4/twiageCases/:id', () => {
    it('is for the crew that owns the case: another crew (even of the same team) 403, unknown 404', async () => {
      const { id } = await startCase();
      expectClientError(await send('GET', casePath(id), medic2, undefined, null), 403);
      expectClientError(await send('GET', casePath(id), medic3, undefined, null), 403);
      expectClientError(await send('GET', casePath(id), await t.signIn('ed1'), undefined, null), 403);
      expectClientError(await send('GET', casePath(randomUUID()), medic1, undefined, null), 404);
    });
  });

  describe('PATCH /v4/twiageCases/:id', () => {
    it('records complaint, hospital, gender, age, each as an event, and GET shows them', async () => {
      const { id } = await startCase();
      const complaint = CaseChangeResponse.parse(
        (await send('PATCH', casePath(id), medic1, { complaint: 'stroke' })).json(),
      );
      expect(complaint.event).toMatchObject({ seq: 2, type: 'complaint' });
      for (const body of [
        { destinationHospital: IDS.hospitals.riversideRegional },
        { gender: 'F' },
        { age: 67, agePeriod: 3 },
      ]) {
        const res = await send('PATCH', casePath(id), medic1, body);
        expect(res.statusCode, res.body).toBe(200);
      }
      const read = await readCase(id);
      expect(read).toMatchObject({
        complaint: 'stroke',
        destinationHospital: { id: IDS.hospitals.riversideRegional },
        gender: 'F',
        age: 67,
        agePeriod: 3,
      });
      expect((await events(id)).map((e) => [e.seq, e.type])).toEqual([
        [1, 'caseStarted'],
        [2, 'complaint'],
        [3, 'hospital'],
        [4, 'gender'],
        [5, 'age'],
      ]);
      // null clears gender and age
      await send('PATCH', casePath(id), medic1, { gender: null });
      await send('PATCH', casePath(id), medic1, { age: null, agePeriod: 2 });
      expect(await readCase(id)).toMatchObject({ gender: null, age: null, agePeriod: 2 });
    });

    it('ignores the same complaint or hospital again (no event)', async () => {
      const id = await caseWithComplaint('stroke');
      await send('PATCH', casePath(id), medic1, { destinationHospital: IDS.hospitals.stMarys });
      const count = (await events(id)).length;
      const same = CaseChangeResponse.parse(
        (await send('PATCH', casePath(id), medic1, { complaint: 'stroke' })).json(),
      );
      expect(same).toEqual({ id, event: null });
      const sameHospital = await send('PATCH', casePath(id), medic1, { destinationHospital: IDS.hospitals.stMarys });
      expect(CaseChangeResponse.parse(sameHospital.json()).event).toBeNull();
      expect((await events(id)).length).toBe(count);
    });

    it('records a non-platform destination, marked nonTwiage in its event', async () => {
      const { id } = await startCase();
      await send('PATCH', casePath(id), medic1, { destinationHospital: IDS.hospitals.valleyCommunity });
      const last = (await events(id)).at(-1)!;
      expect(JSON.parse(last.payload)).toMatchObject({
        destinationHospital: IDS.hospitals.valleyCommunity,
        nonTwiage: true,
      });
    });

    it.each([
      [{ age: 121, agePeriod: 3 }, /age must be from 1 to 120/],
      [{ age: 25, agePeriod: 2 }, /age must be from 1 to 24/],
      [{ age: 25, agePeriod: 1 }, /age must be from 1 to 24/],
      [{ age: 0, agePeriod: 3 }, /age must be at least 1/],
      [{ age: 2.5, agePeriod: 3 }, /whole number/],
      [{ age: 30 }, /agePeriod is required/],
      [{ agePeriod: 3 }, /agePeriod is only sent with age/],
      [{ age: 30, agePeriod: 4 }, /agePeriod/],
      [{ gender: 'X' }, /gender/],
      [{}, /exactly one of/],
      [{ gender: 'F', complaint: 'stroke' }, /exactly one of .*got gender, complaint|got complaint, gender/],
      [{ nickname: 'x' }, /nickname|Unrecognized/i],
      [{ complaint: 'no-such-complaint' }, /not a complaint of the case's complaint set/],
      [{ destinationHospital: IDS.hospitals.lakesideMedical }, /not one of the team's hospitals/],
      [{ arrivedAt: '21/11/2026' }, /arrivedAt/],
    ])('refuses %j with 400 and writes nothing', async (body, message) => {
      const { id } = await startCase();
      await expectRefused(() => send('PATCH', casePath(id), medic1, body), 400, message);
    });

    it('accepts the age limits of each period', async () => {
      const { id } = await startCase();
      for (const body of [
        { age: 120, agePeriod: 3 },
        { age: 24, agePeriod: 2 },
        { age: 24, agePeriod: 1 },
        { age: 1, agePeriod: 1 },
      ]) {
        expect((await send('PATCH', casePath(id), medic1, body)).statusCode).toBe(200);
      }
    });

    it('replays a repeated key without a second event; the same key with another body → 409; no key → 400', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const first = await send('PATCH', casePath(id), medic1, { gender: 'M' }, key);
      const count = (await events(id)).length;
      const again = await send('PATCH', casePath(id), medic1, { gender: 'M' }, key);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect((await events(id)).length).toBe(count);
      await expectRefused(
        () => send('PATCH', casePath(id), medic1, { gender: 'F' }, key),
        409,
        serverMessages.idempotencyKeyReused,
      );
      await expectRefused(
        () => send('PATCH', casePath(id), medic1, { gender: 'F' }, null),
        400,
        serverMessages.idempotencyKeyMissing,
      );
    });

    it('writes exactly one event when N identical requests with one key race', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send('PATCH', casePath(id), medic1, { age: 40, agePeriod: 3 }, key)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect((await events(id)).filter((e) => e.type === 'age')).toHaveLength(1);
    });

    it("refuses another crew's case with 403 and an unknown case with 404, writing nothing", async () => {
      const { id } = await startCase();
      await expectRefused(() => send('PATCH', casePath(id), medic2, { gender: 'F' }), 403);
      await expectRefused(() => send('PATCH', casePath(id), medic3, { gender: 'F' }), 403);
      await expectRefused(() => send('PATCH', casePath(randomUUID()), medic1, { gender: 'F' }), 404);
    });

    it('closes the case with arrivedAt; a closed case refuses every change with 409 (feedback excepted)', async () => {
      const id = await caseWithComplaint('stroke');
      await send('POST', tagsPath(id, TAG.bloodGlucose), medic1);
      const closed = await send('PATCH', casePath(id), medic1, { arrivedAt: '2026-11-21T07:40:00-05:00' });
      expect(CaseChangeResponse.parse(closed.json()).event?.type).toBe('arrived');
      const read = await readCase(id);
      expect(read.arrivedAt).toBe('2026-11-21T12:40:00.000Z');
      expect(read.closedAt).toBe(t.clock.now().toISOString());

      const writes: [Method, string, unknown][] = [
        ['PATCH', casePath(id), { gender: 'F' }],
        ['PATCH', casePath(id), { arrivedAt: CLIENT_TIME }],
        ['POST', locationPath(id), { latitude: 41.5, longitude: -81.7 }],
        ['POST', tagsPath(id, TAG.wakeUp), undefined],
        ['DELETE', tagsPath(id, TAG.bloodGlucose), undefined],
        [
          'PATCH',
          valuesPath(id, TAG.bloodGlucose),
          { fields: [{ key: 'bloodGlucose', value: '90', name: 'x', type: 'number' }] },
        ],
        ['PUT', formPath(id), { fields: [{ key: 'firstName', value: 'Ann' }] }],
        ['PATCH', monitorPath(id), { monitorId: 'monitor-riverside-lifepak-medic-1', patientId: '12' }],
      ];
      for (const [method, url, body] of writes) {
        const error = await expectRefused(() => send(method, url, medic1, body), 409, serverMessages.caseClosed);
        expect(error.code).toBe('case_closed');
      }
      expect(
        (await send('POST', feedbackPath(id), medic1, { rating: 4, notes: 'smooth', type: 'ems' })).statusCode,
      ).toBe(201);
    });
  });

  describe('POST /v4/twiageCases/:id/locationUpdates', () => {
    it('records the position as an event and as the last location', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const res = await send('POST', locationPath(id), medic1, { latitude: 41.4993, longitude: -81.6944 }, key);
      expect(CaseChangeResponse.parse(res.json()).event?.type).toBe('location');
      expect((await readCase(id)).lastLocation).toEqual({
        latitude: 41.4993,
        longitude: -81.6944,
        recordedAt: t.clock.now().toISOString(),
      });
      const count = (await events(id)).length;
      expect(
        (await send('POST', locationPath(id), medic1, { latitude: 41.4993, longitude: -81.6944 }, key)).json(),
      ).toEqual(res.json());
      expect((await events(id)).length).toBe(count);
      await expectRefused(() => send('POST', locationPath(id), medic1, { latitude: 41.5, longitude: -81.7 }, key), 409);
      await expectRefused(
        () => send('POST', locationPath(id), medic1, { latitude: 41.5, longitude: -81.7 }, null),
        400,
      );
    });

    it('refuses a position off the globe (400), another crew (403)', async () => {
      const { id } = await startCase();
      await expectRefused(
        () => send('POST', locationPath(id), medic1, { latitude: 91, longitude: 0 }),
        400,
        /latitude/,
      );
      await expectRefused(() => send('POST', locationPath(id), medic1, { latitude: 0 }), 400, /longitude/);
      await expectRefused(() => send('POST', locationPath(id), medic3, { latitude: 1, longitude: 1 }), 403);
    });
  });

  describe('POST and DELETE /v4/twiageCases/:id/tags', () => {
    it('selects and unselects tags of the chosen complaint, each an event; swap is remove then add', async () => {
      const id = await caseWithComplaint('stroke');
      const added = await send('POST', tagsPath(id, TAG.left), medic1);
      expect(CaseChangeResponse.parse(added.json()).event?.type).toBe('tag');
      await send('POST', tagsPath(id, TAG.wakeUp), medic1);
      // the group stroke-side holds Left: Right is refused until Left is removed
      const rival = await expectRefused(
        () => send('POST', tagsPath(id, TAG.right), medic1),
        409,
        /same group as the selected tag "Left"/,
      );
      expect(rival.code).toBe('conflict');
      expect((await send('DELETE', tagsPath(id, TAG.left), medic1)).statusCode).toBe(200);
      expect((await send('POST', tagsPath(id, TAG.right), medic1)).statusCode).toBe(200);
      expect((await readCase(id)).tags.map((tag) => tag.id)).toEqual([TAG.wakeUp, TAG.right]);
      const payloads = (await events(id))
        .filter((e) => e.type === 'tag')
        .map((e) => JSON.parse(e.payload) as { tagId: string; action: string });
      expect(payloads.map((p) => [p.tagId, p.action])).toEqual([
        [TAG.left, 'added'],
        [TAG.wakeUp, 'added'],
        [TAG.left, 'removed'],
        [TAG.right, 'added'],
      ]);
    });

    it('does nothing for a tag already selected or not selected (no event)', async () => {
      const id = await caseWithComplaint('stroke');
      await send('POST', tagsPath(id, TAG.wakeUp), medic1);
      const count = (await events(id)).length;
      expect(CaseChangeResponse.parse((await send('POST', tagsPath(id, TAG.wakeUp), medic1)).json()).event).toBeNull();
      expect(CaseChangeResponse.parse((await send('DELETE', tagsPath(id, TAG.left), medic1)).json()).event).toBeNull();
      expect((await events(id)).length).toBe(count);
    });

    it('refuses a tag before a complaint, of another complaint, or from another complaint set (400)', async () => {
      const { id } = await startCase();
      await expectRefused(() => send('POST', tagsPath(id, TAG.left), medic1), 400, /Choose a complaint/);
      await send('PATCH', casePath(id), medic1, { complaint: 'stroke' });
      await expectRefused(
        () => send('POST', tagsPath(id, TAG.stemiAspirin), medic1),
        400,
        /belongs to complaint stemi/,
      );
      await expectRefused(
        () => send('POST', tagsPath(id, 'other-set.section.tag'), medic1),
        400,
        /not in the case's complaint set/,
      );
      await expectRefused(() => send('POST', `${buildPath(routes.addCaseTag.path, { id })}`, medic1), 400, /tagId/);
    });

    it('replays a repeated key, refuses a reused key (409), a missing key (400) and another crew (403)', async () => {
      const id = await caseWithComplaint('stroke');
      const key = randomUUID();
      const first = await send('POST', tagsPath(id, TAG.left), medic1, undefined, key);
      const count = (await events(id)).length;
      expect((await send('POST', tagsPath(id, TAG.left), medic1, undefined, key)).json()).toEqual(first.json());
      expect((await events(id)).length).toBe(count);
      await expectRefused(() => send('DELETE', tagsPath(id, TAG.left), medic1, undefined, key), 409);
      await expectRefused(() => send('POST', tagsPath(id, TAG.wakeUp), medic1, undefined, key), 409);
      await expectRefused(() => send('POST', tagsPath(id, TAG.wakeUp), medic1, undefined, null), 400);
      await expectRefused(() => send('DELETE', tagsPath(id, TAG.left), medic1, undefined, null), 400);
      await expectRefused(() => send('POST', tagsPath(id, TAG.wakeUp), medic2), 403);
      await expectRefused(() => send('DELETE', tagsPath(id, TAG.left), medic3), 403);
    });
  });

  describe('PATCH /v4/twiageCases/:id/tags/:tagId/values', () => {
    const lkw = (value: string) => ({
      fields: [{ key: 'lastKnownWell', value, name: 'Last Known Well', type: 'datetime' }],
    });
    const glucose = (value: string) => ({
      fields: [{ key: 'bloodGlucose', value, name: 'Blood Glucose', type: 'number' }],
    });

    it('records the values of a selected data-enabled tag, keeping every save with its time', async () => {
      const id = await caseWithComplaint('stroke');
      await send('POST', tagsPath(id, TAG.lastKnownWell), medic1);
      const res = await send('PATCH', valuesPath(id, TAG.lastKnownWell), medic1, lkw('2026-11-21T06:15:00-05:00'));
      expect(CaseChangeResponse.parse(res.json()).event?.type).toBe('dataEnabledTag');
      t.clock.advance(60_000);
      await send('PATCH', valuesPath(id, TAG.lastKnownWell), medic1, lkw('2026-11-21T06:20:00-05:00'));
      const tag = (await readCase(id)).tags.find((x) => x.id === TAG.lastKnownWell)!;
      expect(tag.values.map((v) => v.fields[0]!.value)).toEqual([
        '2026-11-21T06:15:00-05:00',
        '2026-11-21T06:20:00-05:00',
      ]);
      expect(tag.values[1]!.updatedAt > tag.values[0]!.updatedAt).toBe(true);
      await send('POST', tagsPath(id, TAG.bloodGlucose), medic1);
      expect((await send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose(' 92.5 '))).statusCode).toBe(200);
    });

    it.each([
      [TAG.lastKnownWell, lkw('2026-11-21T06:15:00'), /time zone/],
      [TAG.lastKnownWell, lkw('yesterday'), /time zone/],
      [TAG.bloodGlucose, glucose('ninety'), /must be a number/],
      [TAG.bloodGlucose, glucose('Infinity'), /must be a number/],
      [TAG.bloodGlucose, glucose(''), /at least one value/],
      [
        TAG.bloodGlucose,
        { fields: [{ key: 'bloodGlucose', value: '90', name: 'x', type: 'text' }] },
        /type is number, not text/,
      ],
      [
        TAG.bloodGlucose,
        { fields: [{ key: 'sugar', value: '90', name: 'x', type: 'number' }] },
        /sugar is not a field of tag/,
      ],
      [TAG.bloodGlucose, { fields: [...glucose('90').fields, ...glucose('91').fields] }, /given twice/],
      [TAG.bloodGlucose, { fields: [] }, /fields must not be empty/],
      [
        TAG.bloodGlucose,
        { fields: [{ key: 'bloodGlucose', value: 'x'.repeat(1001), name: 'x', type: 'text' }] },
        /fields/,
      ],
      [TAG.wakeUp, { fields: [{ key: 'x', value: '1', name: 'x', type: 'text' }] }, /not a data-enabled tag/],
      ['other-set.section.tag', glucose('90'), /not in the case's complaint set/],
    ])('refuses values for %s %j with 400 and writes nothing', async (tagId, body, message) => {
      const id = await caseWithComplaint('stroke');
      await send('POST', tagsPath(id, TAG.lastKnownWell), medic1);
      await send('POST', tagsPath(id, TAG.bloodGlucose), medic1);
      await send('POST', tagsPath(id, TAG.wakeUp), medic1);
      await expectRefused(() => send('PATCH', valuesPath(id, tagId), medic1, body), 400, message);
    });

    it('checks date fields as YYYY-MM-DD', async () => {
      const { valueProblem } = await import('./case-rules.js');
      expect(valueProblem('date', '2026-02-30')).toMatch(/YYYY-MM-DD/);
      expect(valueProblem('date', '2026-02-28')).toBeNull();
    });

    it('refuses values for a tag not selected (409), repeats, reused and missing keys, another crew', async () => {
      const id = await caseWithComplaint('stroke');
      await expectRefused(
        () => send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose('90')),
        409,
        /not selected/,
      );
      await send('POST', tagsPath(id, TAG.bloodGlucose), medic1);
      const key = randomUUID();
      const first = await send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose('90'), key);
      const before = await rowCounts();
      expect((await send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose('90'), key)).json()).toEqual(
        first.json(),
      );
      expect(await rowCounts()).toEqual(before);
      await expectRefused(() => send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose('95'), key), 409);
      await expectRefused(() => send('PATCH', valuesPath(id, TAG.bloodGlucose), medic1, glucose('95'), null), 400);
      await expectRefused(() => send('PATCH', valuesPath(id, TAG.bloodGlucose), medic2, glucose('95')), 403);
    });
  });

  describe('PUT /v4/twiageCases/:id/dynamicForms/:formId', () => {
    it("replaces the patient info with the form's fields, empty ones dropped", async () => {
      const { id } = await startCase();
      const res = await send('PUT', formPath(id), medic1, {
        fields: [
          { key: 'firstName', value: 'Ann' },
          { key: 'lastName', value: 'Lee' },
          { key: 'dateOfBirth', value: '1959-03-14' },
          { key: 'mrn', value: '' },
          { key: 'allergies', value: 'penicillin\nlatex' },
        ],
      });
      expect(CaseChangeResponse.parse(res.json()).event?.type).toBe('patientInfo');
      expect((await readCase(id)).patientInfo).toEqual([
        { key: 'firstName', value: 'Ann' },
        { key: 'lastName', value: 'Lee' },
        { key: 'dateOfBirth', value: '1959-03-14' },
        { key: 'allergies', value: 'penicillin\nlatex' },
      ]);
      await send('PUT', formPath(id), medic1, { fields: [{ key: 'firstName', value: 'Anne' }] });
      expect((await readCase(id)).patientInfo).toEqual([{ key: 'firstName', value: 'Anne' }]);
    });

    it.each([
      [IDS.patientInfoForm, { fields: [{ key: 'nickname', value: 'A' }] }, /nickname is not a field/],
      [IDS.patientInfoForm, { fields: [{ key: 'insuranceCard', value: 'x' }] }, /photo field/],
      [IDS.patientInfoForm, { fields: [{ key: 'dateOfBirth', value: '03/14/1959' }] }, /YYYY-MM-DD/],
      [
        IDS.patientInfoForm,
        {
          fields: [
            { key: 'firstName', value: 'A' },
            { key: 'firstName', value: 'B' },
          ],
        },
        /given twice/,
      ],
      [IDS.patientInfoForm, { fields: [{ key: 'firstName' }] }, /value/],
      ['form-nowhere', { fields: [] }, /not a patient info form/],
    ])('refuses form %s %j with 400 and writes nothing', async (formId, body, message) => {
      const { id } = await startCase();
      await expectRefused(() => send('PUT', formPath(id, formId), medic1, body), 400, message);
    });

    it('replays a repeated key, refuses reused and missing keys and another crew', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const body = { fields: [{ key: 'firstName', value: 'Ann' }] };
      const first = await send('PUT', formPath(id), medic1, body, key);
      const before = await rowCounts();
      expect((await send('PUT', formPath(id), medic1, body, key)).json()).toEqual(first.json());
      expect(await rowCounts()).toEqual(before);
      await expectRefused(() => send('PUT', formPath(id), medic1, { fields: [] }, key), 409);
      await expectRefused(() => send('PUT', formPath(id), medic1, body, null), 400);
      await expectRefused(() => send('PUT', formPath(id), medic3, body), 403);
    });
  });

  describe('PATCH /monitor-integration/:type/:caseId', () => {
    const lifepak = 'monitor-riverside-lifepak-medic-1';

    it("links one of the team's monitors and answers the integration", async () => {
      const { id } = await startCase();
      const res = await send('PATCH', monitorPath(id), medic1, { monitorId: lifepak, patientId: '0042' });
      expect(MonitorIntegrationResponse.parse(res.json())).toEqual({
        monitorIntegration: { monitorId: lifepak, patientId: '0042', type: 'lifepak' },
      });
      expect((await readCase(id)).monitorIntegration).toEqual({
        monitorId: lifepak,
        patientId: '0042',
        type: 'lifepak',
      });
      expect((await events(id)).at(-1)?.type).toBe('monitor');
    });

    it.each([
      ['lifepak', { monitorId: 'monitor-lakeside-lifepak-rescue-7', patientId: '1' }, /not one of the team's monitors/],
      ['zoll', { monitorId: 'monitor-riverside-lifepak-medic-1', patientId: '1' }, /lifepak monitor, not zoll/],
      ['lifepak', { monitorId: 'monitor-riverside-lifepak-medic-1', patientId: '12345' }, /1 to 4 digits/],
      ['lifepak', { monitorId: 'monitor-riverside-lifepak-medic-1', patientId: '12a' }, /1 to 4 digits/],
      ['lifepak', { monitorId: 'monitor-riverside-lifepak-medic-1', patientId: '' }, /1 to 4 digits/],
    ])('refuses %s %j with 400 and writes nothing', async (type, body, message) => {
      const { id } = await startCase();
      await expectRefused(() => send('PATCH', monitorPath(id, type), medic1, body), 400, message);
    });

    it('replays a repeated key, refuses reused and missing keys and another crew', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const body = { monitorId: lifepak, patientId: '7' };
      const first = await send('PATCH', monitorPath(id), medic1, body, key);
      const before = await rowCounts();
      expect((await send('PATCH', monitorPath(id), medic1, body, key)).json()).toEqual(first.json());
      expect(await rowCounts()).toEqual(before);
      await expectRefused(() => send('PATCH', monitorPath(id), medic1, { ...body, patientId: '8' }, key), 409);
      await expectRefused(() => send('PATCH', monitorPath(id), medic1, body, null), 400);
      await expectRefused(() => send('PATCH', monitorPath(id), medic2, body), 403);
    });
  });

  describe('POST /v4/twiageCases/:id/case-feedback', () => {
    it("stores the owner's rating and notes", async () => {
      const { id } = await startCase();
      const res = await send('POST', feedbackPath(id), medic1, { rating: 5, notes: 'Great hand-over', type: 'ems' });
      expect(res.statusCode).toBe(201);
      const row = await t.database.db
        .selectFrom('case_feedback')
        .selectAll()
        .where('case_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ rating: 5, notes: 'Great hand-over', type: 'ems', user_id: IDS.users.medic1 });
      expect((await events(id)).at(-1)?.type).toBe('caseFeedback');
    });

    it.each([
      [{ rating: 0, notes: '', type: 'ems' }, /rating/],
      [{ rating: 6, notes: '', type: 'ems' }, /rating/],
      [{ rating: 3, notes: '', type: 'hospital' }, /type/],
      [{ notes: 'x', type: 'ems' }, /rating/],
    ])('refuses %j with 400 and writes nothing', async (body, message) => {
      const { id } = await startCase();
      await expectRefused(() => send('POST', feedbackPath(id), medic1, body), 400, message);
    });

    it('replays a repeated key, refuses reused and missing keys and another crew', async () => {
      const { id } = await startCase();
      const key = randomUUID();
      const body = { rating: 4, notes: '', type: 'ems' };
      const first = await send('POST', feedbackPath(id), medic1, body, key);
      const before = await rowCounts();
      const again = await send('POST', feedbackPath(id), medic1, body, key);
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(await rowCounts()).toEqual(before);
      await expectRefused(() => send('POST', feedbackPath(id), medic1, { ...body, rating: 3 }, key), 409);
      await expectRefused(() => send('POST', feedbackPath(id), medic1, body, null), 400);
      await expectRefused(() => send('POST', feedbackPath(id), medic2, body), 403);
    });
  });
});
