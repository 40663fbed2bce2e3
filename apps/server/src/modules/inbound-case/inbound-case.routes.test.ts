import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  ChatMessagesResponse,
  InboundCaseFeedbackResponse,
  MediaListResponse,
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

const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;

const mediaPath = (id: string, caseId: string) => buildPath(routes.inboundCaseMedia.path, { id, caseId });
const chatPath = (id: string, caseId: string) => buildPath(routes.inboundCaseChat.path, { id, caseId });
const feedbackPath = (id: string, caseId: string) => buildPath(routes.inboundCaseFeedback.path, { id, caseId });
const CALLS = [
  { name: 'media', path: mediaPath },
  { name: 'chat', path: chatPath },
  { name: 'feedback', path: feedbackPath },
] as const;

/** The smallest file the media sniffer takes as a JPEG (SOI + APP0 JFIF header), padded. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 0),
  Buffer.from([0xff, 0xd9]),
]);

describe('inbound case reads: media, chat, feedback for the destination ED', () => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let admin: string;
  let edStMarys: string;
  let caseId: string;
  let otherHospitalCase: string;

  async function uploadPhoto(id: string): Promise<void> {
    const form = new FormData();
    form.append('type', 'photo');
    form.append('data', new Blob([JPEG], { type: 'image/jpeg' }), 'photo.jpeg');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: buildPath(routes.uploadMedia.path, { id }),
      headers: {
        authorization: authorizationHeader(medic1),
        'content-type': request.headers.get('content-type') ?? '',
        'idempotency-key': randomUUID(),
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(201);
  }

  const audit = (id: string) =>
    t.database.db
      .selectFrom('case_read_audit')
      .select(['user_id', 'hospital_id', 'access'])
      .where('case_id', '=', id)
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic1, medic3, ed1, admin, edStMarys] = await signInAll(t, ['medic1', 'medic3', 'ed1', 'admin', 'edstmarys']);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, RIVERSIDE);
    otherHospitalCase = (await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK)).id;
    await setDestination(t, medic3, otherHospitalCase, ST_MARYS);
  });
  afterAll(() => t.close());

  for (const call of CALLS) {
    it(`${call.name}: no token 401; crews (even the case's own), other hospitals' ED staff and org admins 403`, async () => {
      expectClientError(await send(t, 'GET', call.path(RIVERSIDE, caseId), null, { key: null }), 401);
      expectClientError(await send(t, 'GET', call.path(RIVERSIDE, caseId), 'not-a-token', { key: null }), 401);
      for (const token of [medic1, medic3, edStMarys, admin]) {
        expectClientError(await send(t, 'GET', call.path(RIVERSIDE, caseId), token, { key: null }), 403);
      }
      // ED staff of St. Mary's asking through their own hospital for Riverside's case: not theirs.
      expectClientError(await send(t, 'GET', call.path(ST_MARYS, caseId), edStMarys, { key: null }), 404);
    });

    it(`${call.name}: an unknown case and another hospital's case are 404 for ED staff`, async () => {
      expectClientError(await send(t, 'GET', call.path(RIVERSIDE, 'no-such-case'), ed1, { key: null }), 404);
      expectClientError(await send(t, 'GET', call.path(RIVERSIDE, otherHospitalCase), ed1, { key: null }), 404);
      expectClientError(await send(t, 'GET', call.path(ST_MARYS, otherHospitalCase), ed1, { key: null }), 403);
    });
  }

  it('writes no audit row for a refused read', async () => {
    expect((await audit(otherHospitalCase)).filter((r) => r.user_id === IDS.users.ed1)).toEqual([]);
    expect((await audit(caseId)).filter((r) => r.user_id !== IDS.users.ed1)).toEqual([]);
  });

  it('lists the uploads for ED staff, and records the read as media', async () => {
    await uploadPhoto(caseId);
    const res = await send(t, 'GET', mediaPath(RIVERSIDE, caseId), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const body = MediaListResponse.parse(res.json());
    expect(body.uploads).toHaveLength(1);
    expect(body.uploads[0]).toMatchObject({ type: 'photo', fileName: 'photo.jpeg' });
    expect(body.mediaCounts.photo).toBe(1);
    expect(await audit(caseId)).toContainEqual({ user_id: IDS.users.ed1, hospital_id: RIVERSIDE, access: 'media' });
  });

  it('lists the chat both ways for ED staff, and records the read as chat', async () => {
    const message = (text: string, source: string) => ({
      clientCreatedAt: new Date().toISOString(),
      timestamp: new Date().toISOString(),
      deviceId: 'device-1',
      source,
      senderOrganization: source === 'web_hospital' ? 'Riverside Regional' : 'Riverside EMS',
      message: text,
    });
    const chatPost = buildPath(routes.postChatMessage.path, { id: caseId });
    expect((await send(t, 'POST', chatPost, medic1, { body: message('BP 180/100', 'web_ems') })).statusCode).toBe(201);
    expect((await send(t, 'POST', chatPost, ed1, { body: message('Bay 3', 'web_hospital') })).statusCode).toBe(201);
    const res = await send(t, 'GET', chatPath(RIVERSIDE, caseId), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const body = ChatMessagesResponse.parse(res.json());
    // Who sent each is the signed-in side's organisation, whatever the body claimed.
    expect(body.messages.map((m) => [m.content, m.senderOrganization])).toEqual([
      ['BP 180/100', 'Riverside EMS'],
      ['Bay 3', 'Riverside Regional Medical Center'],
    ]);
    expect(await audit(caseId)).toContainEqual({ user_id: IDS.users.ed1, hospital_id: RIVERSIDE, access: 'chat' });
  });

  it("lists the crew's ratings and notes, oldest first, with who and when, and records the read", async () => {
    const empty = InboundCaseFeedbackResponse.parse(
      (await send(t, 'GET', feedbackPath(RIVERSIDE, caseId), ed1, { key: null })).json(),
    );
    expect(empty.feedback).toEqual([]);
    const feedbackUrl = buildPath(routes.caseFeedback.path, { id: caseId });
    for (const body of [
      { rating: 4, notes: 'Quick hand-over, bay was ready.', type: 'ems' },
      { rating: 2, notes: '', type: 'ems' },
    ]) {
      const res = await send(t, 'POST', feedbackUrl, medic1, { body });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await send(t, 'GET', feedbackPath(RIVERSIDE, caseId), ed1, { key: null });
    expect(res.statusCode, res.body).toBe(200);
    const { feedback } = InboundCaseFeedbackResponse.parse(res.json());
    const medic = await t.database.db
      .selectFrom('users')
      .select('display_name')
      .where('id', '=', IDS.users.medic1)
      .executeTakeFirstOrThrow();
    const agency = await t.database.db
      .selectFrom('agencies')
      .select('name')
      .where('id', '=', IDS.agencies.riverside)
      .executeTakeFirstOrThrow();
    expect(feedback.map((f) => [f.rating, f.notes, f.byName, f.agencyName])).toEqual([
      [4, 'Quick hand-over, bay was ready.', medic.display_name, agency.name],
      [2, '', medic.display_name, agency.name],
    ]);
    expect(Date.parse(feedback[0]?.createdAt ?? '')).not.toBeNaN();
    // Each is announced to the case's and the hospital's subscribers, so an open detail lists it live.
    for (const channel of [`case:${caseId}`, `hospital:${RIVERSIDE}`]) {
      // Published after the answer, not awaited by it.
      await vi.waitFor(async () => {
        const notices = (await published(t, channel, 'case.updated')).filter(
          (e) => (e.data as { event?: { type?: string } | null }).event?.type === 'caseFeedback',
        );
        expect(notices.map((e) => (e.data as { event: { id: string } }).event.id)).toEqual(feedback.map((f) => f.id));
      });
    }
    const rows = (await audit(caseId)).filter((r) => r.access === 'feedback');
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.user_id === IDS.users.ed1 && r.hospital_id === RIVERSIDE)).toBe(true);
  });

  it('refuses a hospital not on the platform (403) even to its own staff', async () => {
    await t.database.db.updateTable('hospitals').set({ non_twiage: 1 }).where('id', '=', RIVERSIDE).execute();
    try {
      for (const call of CALLS) {
        expectClientError(await send(t, 'GET', call.path(RIVERSIDE, caseId), ed1, { key: null }), 403);
      }
    } finally {
      await t.database.db.updateTable('hospitals').set({ non_twiage: 0 }).where('id', '=', RIVERSIDE).execute();
    }
  });
});
