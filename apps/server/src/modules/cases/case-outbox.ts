/**
 * The case events' transactional outbox (issue 10): `appendEvent` puts each event in `case_outbox` in
 * the event's own transaction, and this relay announces it after the commit, then removes the row. A
 * crash between the commit and the announcement leaves the row, and the next relay (this process after
 * a restart, or another process) announces it: at least once. A second announcement of an event finds
 * its messages stored under their dedupe key and hands them out with the same channel numbers, which
 * subscribers already past them drop: exactly once on screen.
 *
 * Messages for `case:{id}` that are not case events (chat, receipts, conversions) take the same path
 * through `case_outbox_messages` (`enqueueCaseMessage`), each with its own id as its dedupe key; they
 * too are announced with their cases' rows (a chat message may also send the case's board card).
 *
 * One relay at a time across processes: it holds the `case-events` lease, renewed while it runs; a
 * process whose relay died loses it LEASE_MS later and another takes over. Rows are announced oldest
 * first, so a case's events go out in their order. The relay runs when this process commits a case
 * event (`wake`), when another process signals that it committed one (`peerCommitted`: through the Redis
 * broker, which is there whenever there are several processes), and every POLL_MS — a fallback: rows a
 * crash left, a signal lost, a lease run out. A process that does not hold the lease signals instead, and
 * asks for the lease again only once per POLL_MS (issue 11: it was every wake and every 100 ms poll, an
 * UPDATE each, and a commit on another process waited for the 100 ms poll).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { CaseChannelMessage } from '@inbound/contract';
import { parseJson, toJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import type { CaseAnnouncer } from './case-announcer.js';
import { recordedEvent } from './case-event-log.js';

const LEASE = 'case-events';
export const LEASE_MS = 5_000;
export const POLL_MS = 1_000;
/**
 * Rows read per batch. A relay that fell behind (a burst, a saturated server) catches up in few batches:
 * at 100 a batch, behind a server writing 1,300 events/s, it announced fewer than were written and the
 * board fell seconds behind (issue 11).
 */
const BATCH = 500;

export interface CaseOutboxDeps {
  db: Kysely<DB>;
  announce: CaseAnnouncer;
  logError(error: unknown, what: string): void;
  /** When false the relay never runs: a test's stand-in for a process killed between commit and publish. */
  relay?: boolean;
  /** Tells the other processes' relays that rows were committed here (the broker's `signalOutbox`). */
  signalOthers?: () => void;
  /** POLL_MS by default; a test sets it long to show that a wake or a signal, not the poll, relayed. */
  pollMs?: number;
}

export interface CaseOutbox {
  /** A case event was committed here: relay now rather than at the next poll, or signal the relay's process. */
  wake(): void;
  /** Another process committed a case event (its signal): relay now, if this process holds the lease. */
  peerCommitted(): void;
  /** Resolves once the outbox was empty (or the relay is not this process's) at a moment after the call. */
  drained(): Promise<void>;
  /** Events committed but not yet announced, and how long the oldest has waited (the metrics' gauge). */
  backlog(): Promise<{ pending: number; oldestSeconds: number }>;
  close(): Promise<void>;
}

export function createCaseOutbox({
  db,
  announce,
  logError,
  relay = true,
  signalOthers,
  pollMs = POLL_MS,
}: CaseOutboxDeps): CaseOutbox {
  const holder = randomUUID();
  let leaseUntil = 0;
  // Until when another process is taken to hold the lease (asked again after that).
  let othersHoldUntil = 0;
  let signalQueued = false;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  // Rows announced whose delete has not committed yet. The next batch reads past them instead of waiting
  // for that commit (issue 11: on SQLite it waited in the writer's queue behind the crews' writes, once
  // per batch). A delete that fails lets its rows go: they are announced again, harmlessly.
  const removing = { case_outbox: new Set<string>(), case_outbox_messages: new Set<string>() };
  const removals = new Set<Promise<void>>();

  function remove(table: keyof typeof removing, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const pending = removing[table];
    for (const id of ids) pending.add(id);
    const deleted =
      table === 'case_outbox'
        ? db.deleteFrom('case_outbox').where('event_id', 'in', ids)
        : db.deleteFrom('case_outbox_messages').where('id', 'in', ids);
    const done: Promise<void> = deleted
      .execute()
      .then(
        () => undefined,
        (error: unknown) => logError(error, 'announced case events not removed from the outbox'),
      )
      .finally(() => {
        for (const id of ids) pending.delete(id);
        removals.delete(done);
      });
    removals.add(done);
  }

  /** Waits for the deletes under way (and any they were started beside). */
  async function removed(): Promise<void> {
    while (removals.size > 0) await Promise.all(removals);
  }

  /**
   * Whether this process holds the lease; renewed when half of it has run out. Held by another process,
   * it is not asked for again before the next poll: that one renews it, and a dead one's runs out.
   */
  async function holdLease(): Promise<boolean> {
    const now = Date.now();
    if (leaseUntil - now > LEASE_MS / 2) return true;
    if (leaseUntil === 0 && now < othersHoldUntil) return false;
    const result = await db
      .updateTable('outbox_leases')
      .set({ holder, expires_at: now + LEASE_MS })
      .where('name', '=', LEASE)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
      .executeTakeFirst();
    leaseUntil = Number(result.numUpdatedRows) > 0 ? now + LEASE_MS : 0;
    if (leaseUntil === 0) othersHoldUntil = now + pollMs;
    return leaseUntil > 0;
  }

  /** The given cases as they are now (one read for a batch). */
  function readCases(caseIds: readonly string[]) {
    if (caseIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('cases').selectAll().where('id', 'in', caseIds).execute();
  }

  /**
   * One batch of each stream; answers whether there may be more. Events and the other messages keep
   * their own orders, so a case whose event cannot be announced (its board card fails to build) holds
   * back its own later events until it can, not every case's chat: the messages go out, then the
   * events' failure is reported and the next wake or poll tries them again.
   */
  async function relayBatch(): Promise<boolean> {
    if (!(await holdLease())) return false;
    const events = await relayEvents().then(
      (more) => ({ more, failed: false as const }),
      (error: unknown) => ({ more: false, failed: true as const, error }),
    );
    if (closed) return false;
    const moreMessages = await relayMessages();
    if (events.failed) throw events.error;
    return !closed && (events.more || moreMessages);
  }

  async function relayEvents(): Promise<boolean> {
    // A copy taken before the read: a delete that commits during it leaves the live set, not the rows read.
    const skip = new Set(removing.case_outbox);
    const limit = BATCH + skip.size;
    const read = await db
      .selectFrom('case_outbox')
      .innerJoin('case_events', 'case_events.id', 'case_outbox.event_id')
      .selectAll('case_events')
      .orderBy('case_outbox.created_at')
      .orderBy('case_outbox.case_id')
      .orderBy('case_outbox.seq')
      .limit(limit)
      .execute();
    const rows = read.filter((row) => !skip.has(row.id));
    // Cases are announced concurrently, each case's events one after another in their order (issue 11:
    // one case at a time left each message's commit to wait alone; together they share one).
    const byCase = new Map<string, typeof rows>();
    for (const row of rows) {
      const ofCase = byCase.get(row.case_id);
      if (ofCase) ofCase.push(row);
      else byCase.set(row.case_id, [row]);
    }
    // The batch's cases read once, as they are now (issue 11: a read per event before); every event of
    // the batch was committed before this read, so each is announced with its case's state at or after it.
    const announceBatch = announce.batch(await readCases([...byCase.keys()]));
    const announced: string[] = [];
    const outcomes = await Promise.allSettled(
      [...byCase.values()].map(async (ofCase) => {
        for (const row of ofCase) {
          if (closed) return;
          const event = recordedEvent(row);
          // A row the contract does not describe would block the outbox for ever: logged and dropped.
          if (event) await announceBatch.event(event);
          else
            logError(
              new Error(`case event ${row.id} (${row.type}) is not a contract event`),
              'case event not announced',
            );
          announced.push(row.id);
        }
      }),
    );
    // One write for the batch (issue 11: a delete per event was a commit per event). What was announced
    // before a failure goes too; a row left behind (the failed case's from there on) is announced again,
    // harmlessly — the dedupe key — and in its case's order, since it is older than the case's later rows.
    remove('case_outbox', announced);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return read.length === limit;
  }

  async function relayMessages(): Promise<boolean> {
    const skip = new Set(removing.case_outbox_messages);
    const limit = BATCH + skip.size;
    const read = await db
      .selectFrom('case_outbox_messages')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    const messages = read.filter((row) => !skip.has(row.id));
    // Their cases read once too, after every message of the batch committed: a card sent with one shows
    // the unread count at or after it.
    const announceMessages = announce.batch(await readCases([...new Set(messages.map((row) => row.case_id))]));
    const sent: string[] = [];
    try {
      for (const row of messages) {
        if (closed) break;
        const message = CaseChannelMessage.safeParse(parseJson<unknown>(row.message, null));
        if (message.success) await announceMessages.message(row.case_id, message.data, row.id);
        else logError(new Error(`case message ${row.id} is not a contract message`), 'case message not announced');
        sent.push(row.id);
      }
    } finally {
      remove('case_outbox_messages', sent);
    }
    return read.length === limit;
  }

  async function run(): Promise<void> {
    do {
      again = false;
      try {
        while (!closed && (await relayBatch()));
      } catch (error) {
        // Left in the outbox: the next wake or poll tries again.
        logError(error, 'case events not announced');
        return;
      }
    } while (again && !closed);
  }

  /** Runs the relay, or has the running one go round once more. */
  function relayNow(): void {
    if (!relay || closed) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = null;
    });
  }

  function wake(): void {
    if (!relay || closed) return;
    // Not the relay's process (as far as it knows): the relay's is told. Once per turn of the event loop,
    // however many commits ended in it.
    if (leaseUntil <= Date.now() && signalOthers && !signalQueued) {
      signalQueued = true;
      setImmediate(() => {
        signalQueued = false;
        if (!closed) signalOthers();
      });
    }
    relayNow();
  }

  const poll = relay ? setInterval(relayNow, pollMs) : null;
  poll?.unref();
  // What a process that died left unannounced goes out at this one's start, not at its first poll.
  if (relay) setImmediate(relayNow);

  return {
    wake,
    peerCommitted: relayNow,
    async drained() {
      relayNow();
      while (running) await running;
      await removed();
    },
    async backlog() {
      const counts = await Promise.all(
        (['case_outbox', 'case_outbox_messages'] as const).map((table) =>
          db
            .selectFrom(table)
            .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
            .executeTakeFirstOrThrow(),
        ),
      );
      const times = counts.map((row) => (row.oldest === null ? NaN : Date.parse(row.oldest))).filter((t) => !isNaN(t));
      const oldest = times.length > 0 ? Math.min(...times) : null;
      return {
        pending: counts.reduce((sum, row) => sum + Number(row.pending), 0),
        oldestSeconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
      };
    },
    async close() {
      closed = true;
      if (poll) clearInterval(poll);
      await running;
      await removed();
      if (leaseUntil > 0) {
        // Handed back at once, so another process need not wait for it to run out.
        await db
          .updateTable('outbox_leases')
          .set({ holder: null, expires_at: 0 })
          .where('name', '=', LEASE)
          .where('holder', '=', holder)
          .execute()
          .catch((error: unknown) => logError(error, 'outbox lease not handed back'));
      }
    },
  };
}

/**
 * The relay sends messages in (created_at, id) order. A random id put two messages of the same millisecond
 * (a delivered receipt, then read) in either order; this one begins with the host's monotonic clock (shared
 * by every process of one host), so such ties keep the order they were written in.
 */
function messageId(): string {
  return `${process.hrtime.bigint().toString().padStart(20, '0')}-${randomUUID().slice(0, 8)}`;
}

/**
 * Puts a message for `case:{id}` that is not a case event (a chat message, a receipt, a finished
 * conversion) in the outbox, in the transaction of the change it announces; the relay publishes it
 * with the row's id as its dedupe key. The caller wakes the relay after its commit (`wake`).
 */
export async function enqueueCaseMessage(
  trx: Transaction<DB>,
  caseId: string,
  message: CaseChannelMessage,
  at: string,
): Promise<void> {
  await trx
    .insertInto('case_outbox_messages')
    .values({ id: messageId(), case_id: caseId, message: toJson(CaseChannelMessage.parse(message)), created_at: at })
    .execute();
}
