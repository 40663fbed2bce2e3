/**
 * The relay's two streams are independent: a case event that cannot be announced (its board card fails
 * to build) stays in the outbox to be tried again, and the chat messages queued beside it still go out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { postCrewChat, RIVERSIDE_TRUCK, setDestination, startCase } from '../../test/crew-api.js';
import type { CaseAnnouncer } from './case-announcer.js';
import { createCaseOutbox, type CaseOutbox } from './case-outbox.js';

async function until(done: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the case outbox relay', () => {
  let t: TestApp;
  let outbox: CaseOutbox | null = null;

  beforeAll(async () => {
    // The app's own relay stays off: the relay under test is the only one.
    t = await createTestApp({ relayOutbox: false });
  });
  afterAll(async () => {
    await outbox?.close();
    await t.close();
  });

  it("sends the chat messages while a case's event cannot be announced, and keeps that event to try again", async () => {
    const medic1 = await t.signIn('medic1');
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, medic1, id, IDS.hospitals.riversideRegional);
    const chat = await postCrewChat(t, medic1, id, 'ETA 5');
    expect(chat.statusCode, chat.body).toBe(201);

    const sent: string[] = [];
    const errors: string[] = [];
    const announce: CaseAnnouncer = {
      batch: () => ({
        event: () => Promise.reject(new Error('no board card')),
        message: async (caseId, message) => {
          sent.push(`${message.type}:${caseId}`);
        },
      }),
    };
    outbox = createCaseOutbox({ db: t.database.db, announce, logError: (_error, what) => errors.push(what) });
    outbox.wake();

    await until(() => sent.length > 0 && errors.length > 0);
    expect(sent).toEqual([`chat.message:${id}`]);
    expect(errors).toContain('case events not announced');
    const events = await t.database.db.selectFrom('case_outbox').select('seq').where('case_id', '=', id).execute();
    expect(events.map((row) => Number(row.seq))).toEqual([1, 2]);
    const messages = await t.database.db.selectFrom('case_outbox_messages').selectAll().execute();
    expect(messages).toEqual([]);
  });
});
