/**
 * An event's messages (its case channel's and its destination board's) are published together, so the
 * channel log stores them in one transaction: one commit for the event, where one after another made two.
 * A board card that cannot be built holds back only the board's message.
 */
import { describe, expect, it } from 'vitest';
import type { BoardCase, RecordedCaseEvent } from '@inbound/contract';
import type { CaseRow } from '../../db/schema.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import { createCaseAnnouncer } from './case-announcer.js';

const CASE_ID = 'case-1';
const HOSPITAL_ID = 'hospital-riverside-regional';

const card: BoardCase = {
  id: CASE_ID,
  caseNumber: 'N-1',
  complaint: null,
  tags: [],
  age: 67,
  agePeriod: 3,
  gender: 'F',
  agency: { id: 'agency-riverside', name: 'Riverside EMS' },
  truck: { id: 'truck-1', name: 'Medic 1', isALS: true },
  startedAt: '2026-11-22T11:30:00.000Z',
  arrivedAt: null,
  closedAt: null,
  lastLocation: null,
  acknowledgement: null,
  unreadChat: 0,
  mediaCount: 0,
};

const event: RecordedCaseEvent = {
  id: 'event-1',
  caseId: CASE_ID,
  seq: 2,
  createdAt: '2026-11-22T11:31:00.000Z',
  clientCreatedAt: null,
  actorUserId: 'user-medic1',
  type: 'gender',
  payload: { gender: 'F' },
};

/** A publisher whose stores finish only when the test says: what was asked of it before any finished. */
function heldPublisher() {
  const asked: string[] = [];
  const finish: (() => void)[] = [];
  const publisher: RealtimePublisher = {
    publish: () => Promise.reject(new Error('the announcer publishes once-only messages')),
    publishOnce(channel) {
      asked.push(channel);
      return new Promise((resolve) => finish.push(() => resolve({ seq: asked.length })));
    },
    reauthorize: () => Promise.resolve(),
    isUserConnected: () => Promise.resolve(false),
  };
  return { publisher, asked, finishAll: () => finish.splice(0).forEach((done) => done()) };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the case announcer', () => {
  it("publishes an event's case and board messages together", async () => {
    const { publisher, asked, finishAll } = heldPublisher();
    const announcer = createCaseAnnouncer({
      publisher,
      hospitalOnPlatform: () => Promise.resolve(true),
      boardCards: (rows) => Promise.resolve(rows.map(() => card)),
      upload: () => Promise.resolve(null),
      sentByCrew: () => Promise.resolve(true),
    });
    const row = { id: CASE_ID, destination_hospital_id: HOSPITAL_ID } as CaseRow;

    const announced = announcer.batch([row]).event(event);
    await until(() => asked.length === 2);
    expect(asked).toEqual([`case:${CASE_ID}`, `hospital:${HOSPITAL_ID}`]);
    finishAll();
    await announced;
  });

  it("still sends the event on the case's channel when its board card cannot be built, then fails", async () => {
    const { publisher, asked, finishAll } = heldPublisher();
    const announcer = createCaseAnnouncer({
      publisher,
      hospitalOnPlatform: () => Promise.resolve(true),
      boardCards: () => Promise.reject(new Error('no board card')),
      upload: () => Promise.resolve(null),
      sentByCrew: () => Promise.resolve(true),
    });
    const row = { id: CASE_ID, destination_hospital_id: HOSPITAL_ID } as CaseRow;

    const announced = announcer.batch([row]).event(event);
    await until(() => asked.length === 1);
    expect(asked).toEqual([`case:${CASE_ID}`]);
    finishAll();
    // Failed: the relay keeps the event in the outbox, and the board gets it when the card can be built.
    await expect(announced).rejects.toThrow('no board card');
  });

  it("publishes a crew chat message and its case's card together", async () => {
    const { publisher, asked, finishAll } = heldPublisher();
    const announcer = createCaseAnnouncer({
      publisher,
      hospitalOnPlatform: () => Promise.resolve(true),
      boardCards: (rows) => Promise.resolve(rows.map(() => ({ ...card, unreadChat: 1 }))),
      upload: () => Promise.resolve(null),
      sentByCrew: () => Promise.resolve(true),
    });
    const row = { id: CASE_ID, destination_hospital_id: HOSPITAL_ID } as CaseRow;

    const announced = announcer.batch([row]).message(
      CASE_ID,
      {
        type: 'chat.receipt',
        data: {
          messageId: 'message-1',
          caseId: CASE_ID,
          state: 'read',
          deliveredAt: '2026-11-22T11:32:00.000Z',
          readAt: '2026-11-22T11:33:00.000Z',
        },
      },
      'key-1',
    );
    await until(() => asked.length === 2);
    expect(asked).toEqual([`case:${CASE_ID}`, `hospital:${HOSPITAL_ID}`]);
    finishAll();
    await announced;
  });
});
