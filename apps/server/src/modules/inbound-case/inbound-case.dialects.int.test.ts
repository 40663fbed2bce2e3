/**
 * The console's per-case reads once per database dialect: the feedback query (joins on users,
 * agencies and the case event that orders feedback sent in the same instant), the chat and media
 * lists behind the hospital's check, and their audit rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  ChatMessagesResponse,
  InboundCaseFeedbackResponse,
  MediaListResponse,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { RIVERSIDE_TRUCK, send, setDestination, signInAll, startCase } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';

const dialects = await testDialects();
const RIVERSIDE = IDS.hospitals.riversideRegional;

describe.each(dialects)('inbound case reads on %s', (dialect) => {
  let t: TestApp;
  let medic1: string;
  let ed1: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [medic1, ed1] = await signInAll(t, ['medic1', 'ed1']);
  });
  afterAll(() => t.close());

  it('lists feedback in the order sent with names, chat and media, and audits each read', async () => {
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, RIVERSIDE);
    for (const [rating, notes] of [
      [5, 'first'],
      [3, 'second'],
      [1, 'third'],
    ] as const) {
      const res = await send(t, 'POST', buildPath(routes.caseFeedback.path, { id }), medic1, {
        body: { rating, notes, type: 'ems' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const chat = await send(t, 'POST', buildPath(routes.postChatMessage.path, { id }), ed1, {
      body: {
        clientCreatedAt: '2026-11-21T11:59:30.000Z',
        deviceId: 'console',
        message: 'Bay 3',
        timestamp: '2026-11-21T11:59:30.000Z',
        source: 'web_hospital',
        senderOrganization: 'Riverside Regional Medical Center',
      },
    });
    expect(chat.statusCode, chat.body).toBe(201);

    const read = (name: 'inboundCaseFeedback' | 'inboundCaseChat' | 'inboundCaseMedia') =>
      send(t, 'GET', buildPath(routes[name].path, { id: RIVERSIDE, caseId: id }), ed1, { key: null });
    const feedback = InboundCaseFeedbackResponse.parse((await read('inboundCaseFeedback')).json()).feedback;
    expect(feedback.map((f) => [f.rating, f.notes, f.byName, f.agencyName])).toEqual([
      [5, 'first', 'Jordan Reyes', 'Riverside EMS'],
      [3, 'second', 'Jordan Reyes', 'Riverside EMS'],
      [1, 'third', 'Jordan Reyes', 'Riverside EMS'],
    ]);
    expect(ChatMessagesResponse.parse((await read('inboundCaseChat')).json()).messages.map((m) => m.content)).toEqual([
      'Bay 3',
    ]);
    expect(MediaListResponse.parse((await read('inboundCaseMedia')).json()).uploads).toEqual([]);

    const audit = await t.database.db
      .selectFrom('case_read_audit')
      .select(['access', 'user_id', 'hospital_id'])
      .where('case_id', '=', id)
      .execute();
    expect(audit.map((a) => a.access).sort()).toEqual(['chat', 'feedback', 'media']);
    expect(audit.every((a) => a.user_id === IDS.users.ed1 && a.hospital_id === RIVERSIDE)).toBe(true);
  });
});
