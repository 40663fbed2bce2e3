/**
 * The channels' durable log. `append` hands out the channel's next sequence number and stores the
 * message in one transaction: the counter row is updated first, so a second publisher on the same
 * channel waits on its row lock (PostgreSQL) or on the single writer (SQLite) — numbers are distinct,
 * and gapless because a rolled-back append gives its number back with the rest of its transaction.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { RealtimeEvent } from '@inbound/contract';
import type { DialectName } from '../../db/database.js';
import type { TransactionRunner } from '../../db/group-commit.js';
import { parseJson, toJson } from '../../db/json.js';
import type { DB } from '../../db/schema.js';

export interface StoredMessage {
  channel: string;
  seq: number;
  event: RealtimeEvent;
}

/** A catch-up reads at most this many rows per query; longer catch-ups page. */
export const CATCH_UP_PAGE = 500;

export function createRealtimeRepository(
  db: Kysely<DB>,
  dialect: DialectName,
  /** SQLite: the group commit, so many publishes share one fsync. */
  transactions?: TransactionRunner<DB>,
) {
  async function appendIn(trx: Transaction<DB>, channel: string, event: string, now: string): Promise<number> {
    const counter = await trx
      .insertInto('realtime_channels')
      .values({ channel, seq: 1, updated_at: now })
      .onConflict((oc) =>
        oc.column('channel').doUpdateSet({ seq: sql<number>`realtime_channels.seq + 1`, updated_at: now }),
      )
      .returning('seq')
      .executeTakeFirstOrThrow();
    const seq = Number(counter.seq);
    await trx.insertInto('realtime_messages').values({ channel, seq, event, created_at: now }).execute();
    return seq;
  }

  return {
    async append(channel: string, event: RealtimeEvent, now: string): Promise<number> {
      const json = toJson(event);
      if (dialect === 'postgres') {
        // One statement, one round trip, committed on its own: the counter's row lock is held to the end
        // of the statement's transaction, so publishers of one channel still go one after another.
        const result = await sql<{ seq: string | number }>`
          with counter as (
            insert into realtime_channels (channel, seq, updated_at) values (${channel}, 1, ${now})
            on conflict (channel) do update set seq = realtime_channels.seq + 1, updated_at = excluded.updated_at
            returning seq
          )
          insert into realtime_messages (channel, seq, event, created_at)
          select ${channel}, counter.seq, ${json}, ${now} from counter
          returning seq`.execute(db);
        return Number(result.rows[0]!.seq);
      }
      const run = transactions ?? (<T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work));
      return run((trx) => appendIn(trx, channel, json, now));
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
