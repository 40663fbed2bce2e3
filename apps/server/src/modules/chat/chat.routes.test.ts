import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, ChatMessage, ChatMessagesResponse, ChatReceipt, routes, serverMessages } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  addUser,
  CLIENT_TIME,
  LAKESIDE_TRUCK,
  published,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  startCase,
  signInAll,
} from '../../test/crew-api.js';

const chatPath = (id: string) => buildPath(routes.chatMessages.path, { id });
const receiptPath = (id: string, messageId: string, kind: 'delivered' | 'read') =>
  buildPath(kind === 'delivered' ? routes.chatMessageDelivered.path : routes.chatMessageRead.path, { id, messageId });

const crewMessage = (message: string) => ({
  clientCreatedAt: CLIENT_TIME,
  deviceId: 'web_ems',
  message,
  timestamp: CLIENT_TIME,
  source: 'web_ems',
  senderOrganization: 'Riverside EMS',
});

describe('chat routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic2: string;
  let medic3: string;
  let ed1: string;
  let edStMarys: string;
  let caseId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [IDS.hospitals.stMarys] });
    [medic1, medic2, medic3, ed1, edStMarys] = await signInAll(t, ['medic1', 'medic2', 'medic3', 'ed1', 'edstmarys']);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, IDS.hospitals.riversideRegional);
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await send(t, 'GET', chatPath(caseId), null, { key: null }), 401);
    expectClientError(await send(t, 'POST', chatPath(caseId), null, { body: crewMessage('hi') }), 401);
  });

  it('stores a crew message as sent, publishes it on the case channel, and lists it for both sides', async () => {
    const res = await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('ETA 8 minutes, stroke alert') });
    expect(res.statusCode, res.body).toBe(201);
    const sent = ChatMessage.parse(res.json());
    expect(sent).toMatchObject({
      caseId,
      content: 'ETA 8 minutes, stroke alert',
      senderId: IDS.users.medic1,
      senderName: 'Jordan Reyes',
      senderOrganization: 'Riverside EMS',
      source: 'web_ems',
      type: 'CHAT',
      state: 'sent',
      timestamp: CLIENT_TIME,
    });

    const events = await published(t, `case:${caseId}`, 'chat.message');
    expect(events.map((e) => ChatMessage.parse(e.data)._id)).toContain(sent._id);

    for (const token of [medic1, ed1]) {
      const list = ChatMessagesResponse.parse((await send(t, 'GET', chatPath(caseId), token, { key: null })).json());
      expect(list.messages.map((m) => m._id)).toContain(sent._id);
    }
  });

  it('lets the destination ED answer, oldest first', async () => {
    t.clock.advance(1_000);
    const res = await send(t, 'POST', chatPath(caseId), ed1, {
      body: { ...crewMessage('Stroke team is waiting in bay 3'), source: 'web_hospital', deviceId: 'console' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = ChatMessagesResponse.parse((await send(t, 'GET', chatPath(caseId), medic1, { key: null })).json());
    const times = list.messages.map((m) => m.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(list.messages.at(-1)?.senderName).toBe('Taylor Brooks');
    // The crew confirms the hospital's messages the same way.
    const answer = ChatMessage.parse(res.json());
    const read = await send(t, 'POST', receiptPath(caseId, answer._id, 'read'), medic1, { key: null });
    expect(ChatMessage.parse(read.json()).state).toBe('read');
  });

  it('replays a retried post with the same key once, and refuses the key for another message', async () => {
    const key = randomUUID();
    const first = await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('Retry me'), key });
    const again = await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('Retry me'), key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(ChatMessage.parse(again.json())._id).toBe(ChatMessage.parse(first.json())._id);
    const list = ChatMessagesResponse.parse((await send(t, 'GET', chatPath(caseId), medic1, { key: null })).json());
    expect(list.messages.filter((m) => m.content === 'Retry me')).toHaveLength(1);

    const reused = await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('Something else'), key });
    expect(expectClientError(reused, 409).message).toBe(serverMessages.idempotencyKeyReused);
  });

  it('refuses bad input with a 400 naming the problem', async () => {
    const bad: [unknown, RegExp][] = [
      [crewMessage('   \n\t '), /message is required/],
      [{ ...crewMessage('x'), source: 'sms' }, /source/],
      [{ ...crewMessage('x'), clientCreatedAt: 'yesterday' }, /clientCreatedAt/],
      [{ ...crewMessage('x'), message: 'x'.repeat(4_001) }, /message/],
      [{ ...crewMessage(''), type: 'VOICE_MEMO' }, /mediaId is required/],
      [{ ...crewMessage('x'), mediaId: 'media-1', length: 3 }, /VOICE_MEMO/],
    ];
    for (const [body, message] of bad) {
      expect(expectClientError(await send(t, 'POST', chatPath(caseId), medic1, { body }), 400).message).toMatch(
        message,
      );
    }
    expectClientError(await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('x'), key: null }), 400);
    expectClientError(await send(t, 'POST', chatPath('no-such-case'), medic1, { body: crewMessage('x') }), 404);
  });

  const addMedia = async (forCase: string, id: string) => {
    await t.database.db
      .insertInto('case_media')
      .values({
        id,
        case_id: forCase,
        type: 'voicememo',
        status: 'ready',
        event_id: randomUUID(),
        uploaded_by: IDS.users.medic1,
        original_key: `${id}/original`,
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
  };

  it("accepts a voice memo with its case's recording and length, never another case's", async () => {
    await addMedia(caseId, 'media-voice-1');
    const res = await send(t, 'POST', chatPath(caseId), medic1, {
      body: { ...crewMessage(''), type: 'VOICE_MEMO', mediaId: 'media-voice-1', length: 12.5 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(ChatMessage.parse(res.json())).toMatchObject({ type: 'VOICE_MEMO', mediaId: 'media-voice-1', length: 12.5 });

    const otherCase = await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK);
    await addMedia(otherCase.id, 'media-of-another-agency');
    for (const mediaId of ['media-of-another-agency', 'no-such-media']) {
      const refused = await send(t, 'POST', chatPath(caseId), medic1, {
        body: { ...crewMessage(''), type: 'VOICE_MEMO', mediaId, length: 3 },
      });
      expect(expectClientError(refused, 400).message).toMatch(/mediaId/);
    }
  });

  it('takes source and sender organisation from who signed in, not from the body', async () => {
    const spoofed = await send(t, 'POST', chatPath(caseId), medic1, {
      body: { ...crewMessage('Bypass to St Marys'), source: 'web_hospital', senderOrganization: 'Riverside ED' },
    });
    expect(spoofed.statusCode, spoofed.body).toBe(201);
    expect(ChatMessage.parse(spoofed.json())).toMatchObject({ source: 'web_ems', senderOrganization: 'Riverside EMS' });

    const fromEd = await send(t, 'POST', chatPath(caseId), ed1, {
      body: { ...crewMessage('Bay 2'), source: 'web_ems', senderOrganization: 'Riverside EMS', deviceId: 'console' },
    });
    const hospitalMessage = ChatMessage.parse(fromEd.json());
    expect(hospitalMessage.source).toBe('web_hospital');
    expect(hospitalMessage.senderOrganization).not.toBe('Riverside EMS');
    expect(hospitalMessage.senderOrganization).toMatch(/Riverside/);
  });

  it("refuses another agency's crew, another hospital's ED staff, and a hospital not on the platform", async () => {
    for (const token of [medic2, medic3, edStMarys]) {
      expectClientError(await send(t, 'GET', chatPath(caseId), token, { key: null }), 403);
      expectClientError(await send(t, 'POST', chatPath(caseId), token, { body: crewMessage('hi') }), 403);
    }
    const other = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, other.id, IDS.hospitals.valleyCommunity);
    await t.database.db
      .insertInto('hospital_staff')
      .values({ hospital_id: IDS.hospitals.valleyCommunity, user_id: IDS.users.ed1 })
      .execute();
    const ed1Again = await t.signIn('ed1');
    expectClientError(await send(t, 'GET', chatPath(other.id), ed1Again, { key: null }), 403);
  });

  it('moves a crew message to delivered then read on the hospital side receipts, published as chat.receipt', async () => {
    const sent = ChatMessage.parse(
      (await send(t, 'POST', chatPath(caseId), medic1, { body: crewMessage('Receipt me') })).json(),
    );
    // The sender's own side cannot confirm delivery.
    expectClientError(await send(t, 'POST', receiptPath(caseId, sent._id, 'delivered'), medic1, { key: null }), 409);
    expectClientError(await send(t, 'POST', receiptPath(caseId, sent._id, 'read'), medic2, { key: null }), 403);
    expectClientError(await send(t, 'POST', receiptPath(caseId, 'no-such-message', 'read'), ed1, { key: null }), 404);

    const delivered = ChatMessage.parse(
      (await send(t, 'POST', receiptPath(caseId, sent._id, 'delivered'), ed1, { key: null })).json(),
    );
    expect(delivered.state).toBe('delivered');
    const read = ChatMessage.parse(
      (await send(t, 'POST', receiptPath(caseId, sent._id, 'read'), ed1, { key: null })).json(),
    );
    expect(read.state).toBe('read');
    expect(read.deliveredAt).toBe(delivered.deliveredAt);
    // A late delivered receipt never moves it back.
    const late = ChatMessage.parse(
      (await send(t, 'POST', receiptPath(caseId, sent._id, 'delivered'), ed1, { key: null })).json(),
    );
    expect(late.state).toBe('read');

    const receipts = (await published(t, `case:${caseId}`, 'chat.receipt'))
      .map((e) => ChatReceipt.parse(e.data))
      .filter((r) => r.messageId === sent._id);
    expect(receipts.map((r) => r.state)).toEqual(['delivered', 'read']);
  });

  it('refuses new messages on a closed case but still lists the conversation', async () => {
    const closed = await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK);
    await send(t, 'POST', chatPath(closed.id), medic3, { body: crewMessage('before close') });
    const close = await send(t, 'PATCH', `/v4/twiageCases/${closed.id}`, medic3, { body: { arrivedAt: CLIENT_TIME } });
    expect(close.statusCode, close.body).toBe(200);
    expect(
      expectClientError(await send(t, 'POST', chatPath(closed.id), medic3, { body: crewMessage('after') }), 409).code,
    ).toBe('case_closed');
    const list = ChatMessagesResponse.parse((await send(t, 'GET', chatPath(closed.id), medic3, { key: null })).json());
    expect(list.messages.map((m) => m.content)).toEqual(['before close']);
  });
});
