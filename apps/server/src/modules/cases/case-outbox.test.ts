/**
 * The relay's two streams are independent: a case event that cannot be announced (its board card fails
 * to build) stays in the outbox to be tried again, and the chat messages queued beside it still go out.
 * The next batch does not wait for the last one's rows to be deleted, and announces none of them again.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
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

type Execute = () => Promise<unknown>;

/**
 * `db` with the outbox's deletes and reads wrapped: `aroundDelete` and `aroundRead` (with the table read)
 * are given each statement's `execute` and answer its result (every other statement runs as it is);
 * `onUpdate` is told the table of each UPDATE built.
 */
function wrapped(
  db: Kysely<DB>,
  around: {
    aroundDelete?: (run: Execute) => Promise<unknown>;
    aroundRead?: (run: Execute, table: unknown) => Promise<unknown>;
    onUpdate?: (table: unknown) => void;
  },
): Kysely<DB> {
  const wrap = <T extends object>(builder: T, aroundExecute: (run: Execute) => Promise<unknown>): T =>
    new Proxy(builder, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]): unknown => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property === 'execute') return () => aroundExecute(() => call() as Promise<unknown>);
        return (...args: unknown[]) => {
          const result = call(...args);
          return typeof result === 'object' && result !== null ? wrap(result, aroundExecute) : result;
        };
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === 'deleteFrom' && around.aroundDelete)
        return (...args: Parameters<Kysely<DB>['deleteFrom']>) =>
          wrap(target.deleteFrom(...args), around.aroundDelete!);
      if (property === 'updateTable' && around.onUpdate)
        return (...args: Parameters<Kysely<DB>['updateTable']>) => {
          around.onUpdate!(args[0]);
          return target.updateTable(...args);
        };
      if (property === 'selectFrom' && around.aroundRead)
        return (...args: Parameters<Kysely<DB>['selectFrom']>) =>
          wrap(target.selectFrom(...args), (run) => around.aroundRead!(run, args[0]));
      const value: unknown = Reflect.get(target, property);
      // Kysely's classes keep private fields: their methods run on the real object.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A relay over `db` whose announcer records the sequence numbers of one case's events announced; any
 * error it would log fails the test.
 */
function recordingRelay(db: Kysely<DB>, caseId: string): { relay: CaseOutbox; announced: number[] } {
  const announced: number[] = [];
  const announce: CaseAnnouncer = {
    batch: () => ({
      event: async (event) => {
        if (event.caseId === caseId) announced.push(event.seq);
      },
      message: async () => {},
    }),
  };
  const relay = createCaseOutbox({
    db,
    announce,
    logError: (error) => {
      throw error;
    },
  });
  return { relay, announced };
}

describe('the case outbox relay', () => {
  let t: TestApp;
  const outboxSeqs = async (caseId: string) =>
    (await t.database.db.selectFrom('case_outbox').select('seq').where('case_id', '=', caseId).execute()).map((row) =>
      Number(row.seq),
    );
  let outbox: CaseOutbox | null = null;

  beforeAll(async () => {
    // The app's own relay stays off: the relay under test is the only one.
    t = await createTestApp({ relayOutbox: false });
  });
  afterAll(async () => {
    await outbox?.close();
    await t.close();
  });

  it("announces the next batch before the last one's rows are deleted, and none of those again", async () => {
    const medic1 = await t.signIn('medic1');
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const deletes = gate();
    const { relay, announced } = recordingRelay(
      wrapped(t.database.db, { aroundDelete: async (run) => (await deletes.opened, run()) }),
      id,
    );
    try {
      relay.wake();
      await until(() => announced.length === 1);
      // The case's next event, while the first one's row is still waiting to be deleted.
      await setDestination(t, medic1, id, IDS.hospitals.riversideRegional);
      relay.wake();
      await until(() => announced.length === 2);
      expect((await outboxSeqs(id)).sort()).toEqual([1, 2]);

      deletes.open();
      await relay.drained();
      expect(announced).toEqual([1, 2]);
      expect(await outboxSeqs(id)).toEqual([]);
    } finally {
      deletes.open();
      await relay.close();
    }
  });

  it("without the lease: signals the relay's process once per turn of commits, asks for the lease once a poll", async () => {
    const medic1 = await t.signIn('medic1');
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const holder = recordingRelay(t.database.db, id);
    let leaseAsks = 0;
    let signals = 0;
    const other = createCaseOutbox({
      db: wrapped(t.database.db, { onUpdate: (table) => table === 'outbox_leases' && leaseAsks++ }),
      announce: { batch: () => ({ event: async () => {}, message: async () => {} }) },
      logError: (error) => {
        throw error;
      },
      signalOthers: () => signals++,
      pollMs: 600_000,
    });
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      holder.relay.wake();
      await until(() => holder.announced.length === 1);
      for (let turn = 0; turn < 4; turn++) {
        // Three commits in one turn of the event loop.
        for (let commit = 0; commit < 3; commit++) other.wake();
        await other.drained();
        await nextTurn();
      }
      expect(signals).toBe(4);
      expect(leaseAsks).toBe(1);
      expect(holder.announced).toEqual([1]);
      // The holder, signalled, announces what was committed elsewhere.
      await setDestination(t, medic1, id, IDS.hospitals.riversideRegional);
      holder.relay.peerCommitted();
      await until(() => holder.announced.length === 2);
    } finally {
      await other.close();
      await holder.relay.close();
    }
  });

  it('announces nothing twice when a delete commits while the next batch reads', async () => {
    const medic1 = await t.signIn('medic1');
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const deletes = gate();
    let armed = false;
    const { relay, announced } = recordingRelay(
      wrapped(t.database.db, {
        aroundDelete: async (run) => (await deletes.opened, run()),
        // The armed read of the events answers only after the held delete committed and was told so.
        aroundRead: async (run, table) => {
          const rows = await run();
          if (armed && table === 'case_outbox') {
            armed = false;
            deletes.open();
            await until(async () => (await outboxSeqs(id)).length === 0);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return rows;
        },
      }),
      id,
    );
    try {
      relay.wake();
      await until(() => announced.length === 1);
      armed = true;
      relay.wake();
      await until(() => !armed);
      await relay.drained();
      expect(announced).toEqual([1]);
    } finally {
      deletes.open();
      await relay.close();
    }
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
