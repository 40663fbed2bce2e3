/** Chat messages of a case. Queries only. */
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TransactionRunner } from '../../db/group-commit.js';
import type { ChatMessagesTable, DB } from '../../db/schema.js';

/**
 * `transact` commits an insert: by default one transaction each; on SQLite the app passes the group
 * commit (db/group-commit.ts), so messages arriving together share one fsync.
 */
/** What commits with a chat write (its real-time message in the case outbox), given the row as written. */
export type Alongside = (trx: Transaction<DB>, row: Selectable<ChatMessagesTable>) => Promise<void>;

async function changed(trx: Transaction<DB>, id: string, didChange: boolean, alongside: Alongside): Promise<boolean> {
  if (!didChange) return false;
  await alongside(
    trx,
    await trx.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
  return true;
}

export function createChatRepository(
  db: Kysely<DB>,
  /** The cases module's row lock (cases.repository.ts `lockForWrite`): the case is its to write. */
  lockCase: (trx: Transaction<DB>, caseId: string) => Promise<unknown>,
  transact?: TransactionRunner<DB>,
) {
  const run: TransactionRunner<DB> = transact ?? ((work) => db.transaction().execute(work));
  return {
    /** In the conversation's order. */
    listForCase(caseId: string, limit: number) {
      return db
        .selectFrom('chat_messages')
        .selectAll()
        .where('case_id', '=', caseId)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },

    async findById(caseId: string, id: string) {
      return (
        (await db
          .selectFrom('chat_messages')
          .selectAll()
          .where('case_id', '=', caseId)
          .where('id', '=', id)
          .executeTakeFirst()) ?? null
      );
    },

    async findByKey(senderId: string, key: string) {
      return (
        (await db
          .selectFrom('chat_messages')
          .selectAll()
          .where('sender_id', '=', senderId)
          .where('idempotency_key', '=', key)
          .executeTakeFirst()) ?? null
      );
    },

    /**
     * Stores the message as the case's next one. The case row is locked first (a no-change UPDATE:
     * a row lock on PostgreSQL; SQLite's transaction holds the single writer lock already), so
     * messages racing on one case take their numbers one after another instead of colliding.
     * The (case_id, seq) unique index stays as the guard; the service still retries a violation.
     */
    async insert(row: Omit<Insertable<ChatMessagesTable>, 'seq'>, alongside: Alongside): Promise<void> {
      const next = sql<number>`(select coalesce(max(seq), 0) + 1 from chat_messages where case_id = ${row.case_id})`;
      await run(async (trx) => {
        await lockCase(trx, row.case_id);
        await trx
          .insertInto('chat_messages')
          .values({ ...row, seq: next })
          .execute();
        await alongside(
          trx,
          await trx.selectFrom('chat_messages').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
        );
      });
    },

    /**
     * Stores the message as the case's next one inside a case write that holds the case row's lock
     * already (a voice memo recorded with its upload): one commit for both.
     */
    async insertInCaseWrite(trx: Transaction<DB>, row: Omit<Insertable<ChatMessagesTable>, 'seq'>) {
      const next = sql<number>`(select coalesce(max(seq), 0) + 1 from chat_messages where case_id = ${row.case_id})`;
      await trx
        .insertInto('chat_messages')
        .values({ ...row, seq: next })
        .execute();
      return trx.selectFrom('chat_messages').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    },

    /** Whether the media item belongs to the case. */
    async mediaOfCase(caseId: string, mediaId: string): Promise<boolean> {
      const row = await db
        .selectFrom('case_media')
        .select('id')
        .where('id', '=', mediaId)
        .where('case_id', '=', caseId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async agencyName(agencyId: string): Promise<string | null> {
      const row = await db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirst();
      return row?.name ?? null;
    },

    /**
     * Moves the message forward only: a receipt never undoes a later one. Answers whether it changed;
     * when it did, `alongside` runs in the same transaction with the message as it is now.
     */
    async markDelivered(id: string, at: string, alongside: Alongside): Promise<boolean> {
      return run(async (trx) => {
        const result = await trx
          .updateTable('chat_messages')
          .set({ delivered_at: at })
          .where('id', '=', id)
          .where('delivered_at', 'is', null)
          .executeTakeFirst();
        return changed(trx, id, Number(result.numUpdatedRows) > 0, alongside);
      });
    },

    /** Read implies delivered. */
    async markRead(id: string, at: string, alongside: Alongside): Promise<boolean> {
      return run(async (trx) => {
        const result = await trx
          .updateTable('chat_messages')
          .set((eb) => ({ read_at: at, delivered_at: eb.fn.coalesce('delivered_at', eb.val(at)) }))
          .where('id', '=', id)
          .where('read_at', 'is', null)
          .executeTakeFirst();
        return changed(trx, id, Number(result.numUpdatedRows) > 0, alongside);
      });
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;

/** A unique violation about the per-case number (a racing message), not the idempotency key. */
export function isSeqViolation(error: unknown): boolean {
  const e = error as { message?: unknown; constraint?: unknown } | null;
  return [e?.message, e?.constraint].some(
    (v) => typeof v === 'string' && (v.includes('chat_messages.seq') || v.includes('chat_messages_case_seq_uq')),
  );
}
export type ChatMessageRow = NonNullable<Awaited<ReturnType<ChatRepository['findById']>>>;
