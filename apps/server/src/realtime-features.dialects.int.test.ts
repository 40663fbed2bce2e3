/**
 * Chat, broadcasts, hospital statuses, push subscriptions and case transfer once per database
 * dialect (as api.dialects.int.test.ts does for the start-screen flow): a query that works on SQLite
 * and not on PostgreSQL — a conditional update, a unique index over NULLs, a coalesce — shows up here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  Case,
  CaseTransfer,
  ChatMessage,
  ChatMessagesResponse,
  HospitalStatus,
  HospitalStatusesResponse,
  routes,
  TRANSFER_LIFETIME_MS,
} from '@inbound/contract';
import { IDS } from './seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from './test/app.js';
import {
  CLIENT_TIME,
  LAKESIDE_TRUCK,
  published,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  startCase,
  signInAll,
} from './test/crew-api.js';
import { testDialects } from './test/databases.js';

const dialects = await testDialects();

describe.each(dialects)('real-time features on %s', (dialect) => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect, push: { allowAnyEndpoint: true } });
    [medic1, medic3, ed1] = await signInAll(t, ['medic1', 'medic3', 'ed1']);
  });
  afterAll(() => t.close());

  it('chat: post, replay, voice memo, receipts, list', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, IDS.hospitals.riversideRegional);
    const path = buildPath(routes.postChatMessage.path, { id });
    const body = {
      clientCreatedAt: CLIENT_TIME,
      deviceId: 'web_ems',
      message: 'ETA 5',
      timestamp: CLIENT_TIME,
      source: 'web_ems',
      senderOrganization: 'Riverside EMS',
    };
    const key = randomUUID();
    const first = ChatMessage.parse((await send(t, 'POST', path, medic1, { body, key })).json());
    const again = await send(t, 'POST', path, medic1, { body, key });
    expect(ChatMessage.parse(again.json())._id).toBe(first._id);
    // A voice memo names a recording of this case (as the media upload stores it).
    await t.database.db
      .insertInto('case_media')
      .values({
        id: 'media-1',
        case_id: id,
        type: 'voicememo',
        status: 'ready',
        event_id: randomUUID(),
        uploaded_by: IDS.users.medic1,
        original_key: 'media-1/original',
        original_content_type: 'audio/webm',
        original_size: 10,
        output_key: null,
        output_content_type: null,
        output_size: null,
        duration_ms: null,
        failure: null,
        created_at: t.clock.now().toISOString(),
        converted_at: null,
      })
      .execute();
    const memo = await send(t, 'POST', path, medic1, {
      body: { ...body, message: '', type: 'VOICE_MEMO', mediaId: 'media-1', length: 4.5 },
    });
    expect(ChatMessage.parse(memo.json()).length).toBe(4.5);
    const read = await send(t, 'POST', buildPath(routes.chatMessageRead.path, { id, messageId: first._id }), ed1, {
      key: null,
    });
    expect(ChatMessage.parse(read.json())).toMatchObject({ state: 'read', deliveredAt: expect.any(String) as string });
    const list = ChatMessagesResponse.parse((await send(t, 'GET', path, ed1, { key: null })).json());
    expect(list.messages.map((m) => m.type)).toEqual(['CHAT', 'VOICE_MEMO']);
    expect(await published(t, `case:${id}`, 'chat.message')).toHaveLength(2);

    // Both sides writing at once: every message stored, each with its own place in the conversation.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(t, 'POST', path, i % 2 ? ed1 : medic1, { body: { ...body, message: `burst ${i}` } }),
      ),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array<number>(12).fill(201));
    const seqs = await t.database.db.selectFrom('chat_messages').select('seq').where('case_id', '=', id).execute();
    expect(new Set(seqs.map((r) => Number(r.seq))).size).toBe(14);
  });

  it('broadcasts and hospital statuses', async () => {
    const sent = await send(t, 'POST', routes.sendBroadcast.path, ed1, {
      body: {
        hospitalId: IDS.hospitals.riversideRegional,
        emsAgencyIds: [IDS.agencies.riverside],
        content: 'Diversion lifted',
        urgent: true,
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const status = HospitalStatus.parse(
      (
        await send(t, 'POST', buildPath(routes.setHospitalStatus.path, { id: IDS.hospitals.riversideRegional }), ed1, {
          body: { status: 'On diversion', priority: 'critical' },
          key: null,
        })
      ).json(),
    );
    const cleared = await send(
      t,
      'DELETE',
      buildPath(routes.clearHospitalStatus.path, { id: IDS.hospitals.riversideRegional, statusId: status._id }),
      ed1,
      { key: null },
    );
    expect(HospitalStatusesResponse.parse(cleared.json()).activeStatuses.map((s) => s._id)).not.toContain(status._id);
  });

  it('push: subscribe and unsubscribe', async () => {
    const registrationToken = {
      endpoint: 'http://127.0.0.1:9/push',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    };
    const topic = `user-${IDS.users.medic1}`;
    for (let i = 0; i < 2; i += 1) {
      const res = await send(t, 'POST', routes.pushSubscribe.path, medic1, {
        body: { registrationToken, topic },
        key: null,
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(await t.database.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(1);
    await send(t, 'POST', routes.pushUnsubscribe.path, medic1, { body: { registrationToken, topic }, key: null });
    expect(await t.database.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(0);
  });

  it('case transfer: the whole hand-over, a second live transfer refused, expiry', async () => {
    const { id: caseId } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const create = () => send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId }, key: null });
    const opened = CaseTransfer.parse((await create()).json());
    expectClientError(await create(), 409);
    const step = (name: 'acceptTransferRequest' | 'transferReceived' | 'acknowledgeTransfer', token: string) =>
      send(t, 'PATCH', buildPath(routes[name].path, { id: opened._id }), token, { key: null });
    const requested = await send(
      t,
      'POST',
      buildPath(routes.requestTransfer.path, { code: opened.caseTransferCode }),
      medic3,
      { body: { emsAgencyId: IDS.agencies.lakeside, truckId: LAKESIDE_TRUCK }, key: null },
    );
    expect(requested.statusCode, requested.body).toBe(200);
    expect((await step('acceptTransferRequest', medic1)).statusCode).toBe(200);
    expect((await step('transferReceived', medic3)).statusCode).toBe(200);
    expect(CaseTransfer.parse((await step('acknowledgeTransfer', medic1)).json()).status).toBe('done');
    const moved = Case.parse((await send(t, 'GET', `/v4/twiageCases/${caseId}`, medic3, { key: null })).json());
    expect(moved.ownedBy).toBe(IDS.users.medic3);
    expectClientError(await send(t, 'GET', `/v4/twiageCases/${caseId}`, medic1, { key: null }), 403);

    // The receiver, now the owner, may transfer it on; that one expires.
    const next = await send(t, 'POST', routes.createTransfer.path, medic3, { body: { caseId }, key: null });
    const second = CaseTransfer.parse(next.json());
    t.clock.advance(TRANSFER_LIFETIME_MS);
    const expired = await send(t, 'GET', buildPath(routes.getTransfer.path, { id: second._id }), medic3, { key: null });
    expect(CaseTransfer.parse(expired.json()).status).toBe('expired');
  });
});
