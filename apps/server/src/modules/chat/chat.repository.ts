/** Chat messages of a case. Queries only. */
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { TransactionRunner } from '../../db/group-commit.js';
import type { ChatMessagesTable, DB } from '../../db/schema.js';

/**
 * `transact` commits an insert: by default one transaction each; on SQLite the app passes the group
 * commit (db/group-commit.ts), so messages arriving together share one fsync.
 */
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
    async insert(row: Omit<Insertable<ChatMessagesTable>, 'seq'>): Promise<void> {
      const next = sql<number>`(select coalesce(max(seq), 0) + 1 from chat_messages where case_id = ${row.case_id})`;
      await run(async (trx) => {
        await lockCase(trx, row.case_id);
        await trx
          .insertInto('chat_messages')
          .values({ ...row, seq: next })
          .execute();
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

    async agencyName(agencyId: string): Promise<string | null> {
      const row = await db.selectFrom('agencies').select('name').where('id', '=', agencyId).executeTakeFirst();
      return row?.name ?? null;
    },

    /** Moves the message forward only: a receipt never undoes a later one. Answers whether it changed. */
    async markDelivered(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('chat_messages')
        .set({ delivered_at: at })
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Read implies delivered. */
    async markRead(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('chat_messages')
        .set((eb) => ({ read_at: at, delivered_at: eb.fn.coalesce('delivered_at', eb.val(at)) }))
        .where('id', '=', id)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
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
