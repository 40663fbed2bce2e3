/**
 * The channels' durable log. `append` hands out the channel's next sequence number and stores the
 * message in the same transaction: the counter row is updated first, so another publisher of the
 * channel waits on its row lock (PostgreSQL, another process) or on the single writer (SQLite) —
 * numbers are distinct, and gapless because a rolled-back append gives its number back with the rest
 * of its transaction. Appends are batched (group commit) so a busy server pays one commit for many.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { prepareStatement } from '../../db/prepared.js';
import type { RealtimeEvent } from '@inbound/contract';
import { parseJson, toJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';

export interface StoredMessage {
  channel: string;
  seq: number;
  event: RealtimeEvent;
}

/** A catch-up reads at most this many rows per query; longer catch-ups page. */
export const CATCH_UP_PAGE = 500;

/** Appends of one batch: at most this many go into one transaction. */
export const APPEND_BATCH_MAX = 500;
interface PendingAppend {
  channel: string;
  event: string;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}
interface PendingOnce extends PendingAppend {
  dedupeKey: string;
}

export function createRealtimeRepository(db: Kysely<DB>, now: () => string) {
  // The outbox's per-message statements, compiled once (db/prepared.ts).
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const storedSeq = prepareStatement(
    db,
    (channel: string, dedupeKey: string) =>
      db
        .selectFrom('realtime_messages')
        .select('seq')
        .where('channel', '=', channel)
        .where('dedupe_key', '=', dedupeKey),
    2,
  );
  const bumpChannelQuery = (channel: string, at: string) =>
    db
      .insertInto('realtime_channels')
      .values({ channel, seq: 1, updated_at: at })
      .onConflict((oc) =>
        oc.column('channel').doUpdateSet({
          seq: sql<number>`realtime_channels.seq + 1`,
          updated_at: sql<string>`excluded.updated_at`,
        }),
      )
      .returning('seq');
  const bumpChannel = prepareStatement(db, bumpChannelQuery, 2);
  const insertMessage = prepareStatement(
    db,
    (channel: string, seq: number, event: string, created_at: string, dedupe_key: string) =>
      db.insertInto('realtime_messages').values({ channel, seq, event, created_at, dedupe_key }),
    5,
  );
  /** PostgreSQL: the counter's move and the message in one statement — atomic without a transaction. */
  const appendOnceStatement = prepareStatement(
    db,
    (channel: string, at: string, messageChannel: string, event: string, createdAt: string, dedupeKey: string) =>
      db
        .with('head', () => bumpChannelQuery(channel, at))
        .insertInto('realtime_messages')
        .columns(['channel', 'seq', 'event', 'created_at', 'dedupe_key'])
        .expression((eb) =>
          eb
            .selectFrom('head')
            .select((inner) => [
              inner.val(messageChannel).as('channel'),
              'head.seq',
              inner.val(event).as('event'),
              inner.val(createdAt).as('created_at'),
              inner.val(dedupeKey).as('dedupe_key'),
            ]),
        )
        .returning('seq'),
    6,
  );
  const waiting: PendingAppend[] = [];
  let writing = false;

  /**
   * One transaction for every append queued meanwhile: the counters of the batch's channels move by
   * their counts in one upsert (channels sorted, so two processes lock rows in the same order and
   * cannot deadlock), the messages go in with one insert, and one commit (one fsync on SQLite, one WAL
   * flush on PostgreSQL) makes all of them durable. The statement count is the same for 1 append or 500.
   */
  async function writeBatch(batch: PendingAppend[], now: string): Promise<void> {
    const counts = new Map<string, number>();
    for (const item of batch) counts.set(item.channel, (counts.get(item.channel) ?? 0) + 1);
    const channels = [...counts.keys()].sort();
    let seqs: number[];
    try {
      seqs = await db.transaction().execute(async (trx) => {
        const heads = await trx
          .insertInto('realtime_channels')
          .values(channels.map((channel) => ({ channel, seq: counts.get(channel)!, updated_at: now })))
          .onConflict((oc) =>
            oc.column('channel').doUpdateSet({
              seq: sql<number>`realtime_channels.seq + excluded.seq`,
              updated_at: sql<string>`excluded.updated_at`,
            }),
          )
          .returning(['channel', 'seq'])
          .execute();
        // The batch's numbers of a channel are the last `count` up to its new head, in queue order.
        const next = new Map(heads.map((h) => [h.channel, Number(h.seq) - counts.get(h.channel)! + 1]));
        const assigned = batch.map((item) => {
          const seq = next.get(item.channel)!;
          next.set(item.channel, seq + 1);
          return seq;
        });
        await trx
          .insertInto('realtime_messages')
          .values(
            batch.map((item, i) => ({ channel: item.channel, seq: assigned[i]!, event: item.event, created_at: now })),
          )
          .execute();
        return assigned;
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => item.resolve(seqs[i]!));
  }

  const waitingOnce: PendingOnce[] = [];
  let writingOnce = false;

  /** One message alone, outside any batch (the fallback when a batch met a concurrent relay's row). */
  async function appendOneOnce(item: PendingOnce, at: string): Promise<number> {
    try {
      if (onPostgres) {
        const stored = await appendOnceStatement(db, item.channel, at, item.channel, item.event, at, item.dedupeKey);
        return Number(stored.rows[0]!.seq);
      }
      return await db.transaction().execute(async (trx) => {
        const head = await bumpChannel(trx, item.channel, at);
        const seq = Number(head.rows[0]!.seq);
        await insertMessage(trx, item.channel, seq, item.event, at, item.dedupeKey);
        return seq;
      });
    } catch (error) {
      // Another relay stored it meanwhile, or earlier (the unique dedupe index): its number.
      const raced = (await storedSeq(db, item.channel, item.dedupeKey)).rows[0];
      if (raced) return Number(raced.seq);
      throw error;
    }
  }

  /**
   * A batch of `appendOnce` calls in one transaction: the messages already stored under their key are
   * found with one read and answered their numbers; the rest move their channels' counters with one
   * upsert and go in with one insert (as `writeBatch`). A message stored by another relay between the
   * read and the insert fails the batch on the unique dedupe index; then each message is stored alone.
   */
  async function writeOnceBatch(batch: PendingOnce[], at: string): Promise<void> {
    const keyOf = (item: { channel: string; dedupeKey: string }) => `${item.channel}\u0000${item.dedupeKey}`;
    let seqs: number[];
    try {
      seqs = await db.transaction().execute(async (trx) => {
        const known = new Map<string, number>();
        if (onPostgres) {
          // One read for the batch (a round trip saved per message).
          const stored = await trx
            .selectFrom('realtime_messages')
            .select(['channel', 'dedupe_key', 'seq'])
            .where('channel', 'in', [...new Set(batch.map((item) => item.channel))])
            .where('dedupe_key', 'in', [...new Set(batch.map((item) => item.dedupeKey))])
            .execute();
          for (const row of stored)
            if (typeof row.dedupe_key === 'string')
              known.set(keyOf({ channel: row.channel, dedupeKey: row.dedupe_key }), Number(row.seq));
        } else {
          // SQLite, in-process: a compiled point read per message on the partial unique index (a read of
          // the batch with two `in` lists did not use it and scanned: 5–30 ms a batch).
          for (const item of batch) {
            const row = (await storedSeq(trx, item.channel, item.dedupeKey)).rows[0];
            if (row) known.set(keyOf(item), Number(row.seq));
          }
        }
        // The same message twice in one batch is stored once (the first), like a repeat after the batch.
        const fresh: PendingOnce[] = [];
        const firstOf = new Map<string, number>();
        batch.forEach((item, i) => {
          const key = keyOf(item);
          if (!known.has(key) && !firstOf.has(key)) {
            firstOf.set(key, i);
            fresh.push(item);
          }
        });
        if (fresh.length > 0) {
          const counts = new Map<string, number>();
          for (const item of fresh) counts.set(item.channel, (counts.get(item.channel) ?? 0) + 1);
          const channels = [...counts.keys()].sort();
          const heads = await trx
            .insertInto('realtime_channels')
            .values(channels.map((channel) => ({ channel, seq: counts.get(channel)!, updated_at: at })))
            .onConflict((oc) =>
              oc.column('channel').doUpdateSet({
                seq: sql<number>`realtime_channels.seq + excluded.seq`,
                updated_at: sql<string>`excluded.updated_at`,
              }),
            )
            .returning(['channel', 'seq'])
            .execute();
          const next = new Map(heads.map((h) => [h.channel, Number(h.seq) - counts.get(h.channel)! + 1]));
          const rows = fresh.map((item) => {
            const seq = next.get(item.channel)!;
            next.set(item.channel, seq + 1);
            known.set(keyOf(item), seq);
            return { channel: item.channel, seq, event: item.event, created_at: at, dedupe_key: item.dedupeKey };
          });
          await trx.insertInto('realtime_messages').values(rows).execute();
        }
        return batch.map((item) => known.get(keyOf(item))!);
      });
    } catch {
      // A concurrent relay's message (or any failure): each message alone, in queue order, as before.
      for (const item of batch) await appendOneOnce(item, at).then(item.resolve, item.reject);
      return;
    }
    batch.forEach((item, i) => item.resolve(seqs[i]!));
  }

  async function drainOnce(): Promise<void> {
    writingOnce = true;
    try {
      while (waitingOnce.length > 0) await writeOnceBatch(waitingOnce.splice(0, APPEND_BATCH_MAX), now());
    } finally {
      writingOnce = false;
    }
  }

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (waiting.length > 0) await writeBatch(waiting.splice(0, APPEND_BATCH_MAX), now());
    } finally {
      writing = false;
    }
  }

  return {
    /** Stores the event under the channel's next number; resolves with it once committed. */
    append(channel: string, event: RealtimeEvent): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        waiting.push({ channel, event: toJson(event), resolve, reject });
        // On the next turn, so the appends of this turn share the transaction. (Waiting longer to gather
        // bigger batches was tried: under CPU contention the late timers made it much worse.)
        if (!writing) {
          writing = true;
          setImmediate(() => void drain());
        }
      });
    },

    /**
     * Stores the event under the channel's next number unless a message with this dedupe key is stored
     * on the channel already; answers the stored message's number either way (an outbox relay that runs
     * an event again gets the number it got the first time). Resolves once committed.
     *
     * Batched like `append` (issue 11: the outbox relay's messages were one transaction — on SQLite one
     * commit — each): every call queued meanwhile shares one transaction.
     */
    appendOnce(channel: string, event: RealtimeEvent, dedupeKey: string): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        waitingOnce.push({ channel, event: toJson(event), dedupeKey, resolve, reject });
        if (!writingOnce) {
          writingOnce = true;
          setImmediate(() => void drainOnce());
        }
      });
    },

    /** The channel's last sequence number (0 when nothing was ever published on it). */
    async head(channel: string): Promise<number> {
      const row = await db
        .selectFrom('realtime_channels')
        .select('seq')
        .where('channel', '=', channel)
        .executeTakeFirst();
      return row ? Number(row.seq) : 0;
    },

    /** Messages after `afterSeq` up to `uptoSeq` (inclusive, when given), oldest first, one page. */
    async after(channel: string, afterSeq: number, uptoSeq?: number): Promise<StoredMessage[]> {
      let query = db
        .selectFrom('realtime_messages')
        .select(['seq', 'event'])
        .where('channel', '=', channel)
        .where('seq', '>', afterSeq);
      if (uptoSeq !== undefined) query = query.where('seq', '<=', uptoSeq);
      const rows = await query.orderBy('seq').limit(CATCH_UP_PAGE).execute();
      return rows.map((row) => ({
        channel,
        seq: Number(row.seq),
        event: parseJson<RealtimeEvent>(row.event, { type: 'unknown', data: null }),
      }));
    },

    /** Deletes messages older than `before`; the counters stay (numbers must never restart). */
    async prune(before: string): Promise<number> {
      const result = await db.deleteFrom('realtime_messages').where('created_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Of the given sessions, those no longer valid: revoked, expired, gone, or whose user was disabled.
     * Read here rather than through the auth service because the gateway checks every open socket in
     * one query per batch, which the per-token `authenticate` cannot do.
     */
    async invalidSessions(sessionIds: readonly string[], now: string): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const valid = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('sessions.jti')
        .where('sessions.jti', 'in', sessionIds)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', now)
        .where('users.disabled', '=', 0)
        .execute();
      const ok = new Set(valid.map((row) => row.jti));
      return new Set(sessionIds.filter((id) => !ok.has(id)));
    },
  };
}

export type RealtimeRepository = ReturnType<typeof createRealtimeRepository>;
