/**
 * Cases, their event log, tags, tag values, access list, idempotency keys and feedback. Queries only.
 * Writes take the transaction they belong to (`Executor`): the service opens one per change, so the
 * event and the case's current state commit together or not at all.
 */
import { PostgresAdapter, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { RecordedCaseEvent } from '@inbound/contract';
import type {
  CaseFeedbackTable,
  CaseIdempotencyKeysTable,
  CaseRow,
  CasesTable,
  CaseTagsTable,
  CaseTagValuesTable,
  DB,
} from '../../db/schema.js';
import type { TransactionRunner } from '../../db/group-commit.js';
import { prepareStatement } from '../../db/prepared.js';
import { eventRow } from './case-event-log.js';
import { recordSecurityEvent } from '../audit/security-audit.js';

export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * `transact` runs a unit of work in a transaction; by default one database transaction each. On SQLite
 * the app passes a group commit (db/group-commit.ts): the same guarantees, one fsync for many writes.
 */
export function createCasesRepository(db: Kysely<DB>, transact?: TransactionRunner<DB>) {
  const run: TransactionRunner<DB> = transact ?? ((work) => db.transaction().execute(work));
  const statements = writePathStatements(db);
  /**
   * Takes the case's row lock for the rest of the transaction (PostgreSQL: a no-change UPDATE locks
   * the row; SQLite: the transaction already holds the single writer lock) and answers the row as
   * it is now, so checks that depend on the case's state cannot race another write to it.
   */
  async function lockForWrite(trx: Transaction<DB>, id: string): Promise<CaseRow | null> {
    return (await statements.lockForWrite(trx, id)).rows[0] ?? null;
  }

  return {
    /** Runs `work` in one transaction: all its writes commit (durably) together, or none does. */
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return run(work);
    },

    async findById(id: string, executor: Executor = db): Promise<CaseRow | null> {
      return (await statements.findById(executor, id)).rows[0] ?? null;
    },

    lockForWrite,

    /**
     * Whether the case is closed (or gone), holding its row lock for the rest of the transaction, so a
     * close cannot commit between this check and the step it guards (a transfer step, a chat message).
     */
    async lockIsClosed(trx: Transaction<DB>, id: string): Promise<boolean> {
      const row = await lockForWrite(trx, id);
      return row === null || row.arrived_at !== null;
    },

    async caseNumberTaken(caseNumber: string): Promise<boolean> {
      const row = await db.selectFrom('cases').select('id').where('case_number', '=', caseNumber).executeTakeFirst();
      return row !== undefined;
    },

    async insertCase(trx: Transaction<DB>, row: Insertable<CasesTable>, ownerId: string): Promise<void> {
      await trx.insertInto('cases').values(row).execute();
      await trx
        .insertInto('case_access')
        .values({ case_id: row.id, user_id: ownerId, role: 'owner', granted_at: row.created_at })
        .execute();
    },

    async updateCase(trx: Transaction<DB>, id: string, changes: Updateable<CasesTable>): Promise<void> {
      await statements.updateCase(trx, id, changes);
    },

    /** A destination change, kept so the old hospital's board can say where the case went (issue 15). */
    async insertDestinationChange(trx: Transaction<DB>, row: Insertable<DB['case_destination_changes']>) {
      await trx.insertInto('case_destination_changes').values(row).execute();
    },

    /** The case and the user's role on its access list (null: not on it), in one read. */
    async findWithAccess(id: string, userId: string): Promise<{ row: CaseRow; role: string | null } | null> {
      const found = (await statements.findWithAccess(db, userId, id)).rows[0];
      if (!found) return null;
      const { access_role, ...row } = found;
      return { row, role: access_role };
    },

    /**
     * What a change of the case reads before its transaction, in one statement (issue 11; two before):
     * the user's answer stored under the idempotency key, the case and the user's role on its access list.
     * Without the case (gone, or a wrong id) the key is looked up alone, so a known key is still answered.
     */
    async findForWrite(
      id: string,
      userId: string,
      key: string,
    ): Promise<{ stored: StoredAnswer | null; found: { row: CaseRow; role: string | null } | null }> {
      const read = (await statements.findForWrite(db, userId, userId, key, id)).rows[0];
      if (!read) {
        const known = (await statements.findIdempotencyKey(db, userId, key)).rows[0];
        return { stored: known ? { request_hash: known.request_hash, response: known.response } : null, found: null };
      }
      const { access_role, stored_request_hash, stored_response, ...row } = read;
      const stored =
        stored_request_hash === null || stored_response === null
          ? null
          : { request_hash: stored_request_hash, response: stored_response };
      return { stored, found: { row, role: access_role } };
    },

    /** Whether the user is on the case's access list (its owner, or later a crew it was transferred to). */
    async hasAccess(caseId: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('case_access')
        .select('role')
        .where('case_id', '=', caseId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Appends the event to the case's log, puts it in the outbox (its announcement, relayed after the
     * commit: case-outbox.ts) and moves the case's version to it, with the `changes` of the case's
     * columns the event records in the same UPDATE — all in the caller's transaction.
     */
    async appendEvent(
      trx: Transaction<DB>,
      event: RecordedCaseEvent,
      changes: Updateable<CasesTable> = {},
    ): Promise<void> {
      await statements.appendEvent(trx, event, changes);
      // Who changed which case, chained in the same transaction (issue 17); the payload stays out.
      await recordSecurityEvent(trx, {
        actorId: event.actorUserId || null,
        action: `case.${event.type}`,
        entityType: 'case',
        entityId: event.caseId,
        caseId: event.caseId,
        detail: { eventId: event.id, seq: event.seq },
        at: new Date(event.createdAt),
      });
    },

    /** The case's photo, id, ekg, video and voicememo events, oldest first. */
    mediaEvents(caseId: string, executor: Executor = db) {
      return executor
        .selectFrom('case_events')
        .select(['type', 'payload'])
        .where('case_id', '=', caseId)
        .where('type', 'in', ['photo', 'id', 'ekg', 'video', 'voicememo'])
        .orderBy('seq')
        .execute();
    },

    events(caseId: string, executor: Executor = db) {
      return executor.selectFrom('case_events').selectAll().where('case_id', '=', caseId).orderBy('seq').execute();
    },

    // ---- tags ------------------------------------------------------------------------------------

    tags(caseId: string, executor: Executor = db) {
      return executor.selectFrom('case_tags').selectAll().where('case_id', '=', caseId).orderBy('seq').execute();
    },

    async insertTag(trx: Transaction<DB>, row: Insertable<CaseTagsTable>): Promise<void> {
      await trx.insertInto('case_tags').values(row).execute();
    },

    async deleteTag(trx: Transaction<DB>, caseId: string, tagId: string): Promise<void> {
      await trx.deleteFrom('case_tags').where('case_id', '=', caseId).where('tag_id', '=', tagId).execute();
    },

    tagValues(caseId: string, executor: Executor = db) {
      return executor.selectFrom('case_tag_values').selectAll().where('case_id', '=', caseId).orderBy('seq').execute();
    },

    async insertTagValues(trx: Transaction<DB>, row: Insertable<CaseTagValuesTable>): Promise<void> {
      await trx.insertInto('case_tag_values').values(row).execute();
    },

    // ---- idempotency -----------------------------------------------------------------------------

    async findIdempotencyKey(userId: string, key: string, executor: Executor = db) {
      return (await statements.findIdempotencyKey(executor, userId, key)).rows[0] ?? null;
    },

    async insertIdempotencyKey(trx: Transaction<DB>, row: Insertable<CaseIdempotencyKeysTable>): Promise<void> {
      await statements.insertIdempotencyKey(
        trx,
        row.user_id,
        row.key,
        row.case_id,
        row.request_hash,
        row.status,
        row.response,
        row.created_at,
      );
    },

    // ---- feedback --------------------------------------------------------------------------------

    async insertFeedback(trx: Transaction<DB>, row: Insertable<CaseFeedbackTable>): Promise<void> {
      await trx.insertInto('case_feedback').values(row).execute();
    },

    feedback(caseId: string) {
      return db.selectFrom('case_feedback').selectAll().where('case_id', '=', caseId).orderBy('created_at').execute();
    },

    // ---- access list (case transfer) -------------------------------------------------------------

    /** Who is on the case's access list: its crews. */
    async accessUserIds(caseId: string): Promise<string[]> {
      const rows = await db.selectFrom('case_access').select('user_id').where('case_id', '=', caseId).execute();
      return rows.map((r) => r.user_id);
    },

    /** Puts a user on the access list (a receiving crew while it loads the case). */
    async grantAccess(trx: Transaction<DB>, caseId: string, userId: string, role: string, at: string): Promise<void> {
      await trx
        .insertInto('case_access')
        .values({ case_id: caseId, user_id: userId, role, granted_at: at })
        // Someone already on the list keeps the role they have.
        .onConflict((oc) => oc.columns(['case_id', 'user_id']).doNothing())
        .execute();
    },

    /** Takes a user off the access list when they hold `role` there (a receiver whose transfer ended). */
    async revokeAccess(trx: Transaction<DB>, caseId: string, userId: string, role: string): Promise<void> {
      await trx
        .deleteFrom('case_access')
        .where('case_id', '=', caseId)
        .where('user_id', '=', userId)
        .where('role', '=', role)
        .execute();
    },

    /** A finished transfer: the receiver owns the case; the sender leaves its access list. */
    async handOver(trx: Transaction<DB>, caseId: string, fromUserId: string, toUserId: string, at: string) {
      await trx.updateTable('cases').set({ owned_by: toUserId, updated_at: at }).where('id', '=', caseId).execute();
      await trx
        .insertInto('case_access')
        .values({ case_id: caseId, user_id: toUserId, role: 'owner', granted_at: at })
        .onConflict((oc) => oc.columns(['case_id', 'user_id']).doUpdateSet({ role: 'owner', granted_at: at }))
        .execute();
      if (fromUserId !== toUserId) {
        await trx.deleteFrom('case_access').where('case_id', '=', caseId).where('user_id', '=', fromUserId).execute();
      }
    },
  };
}

export type CasesRepository = ReturnType<typeof createCasesRepository>;

/** An answer stored under an idempotency key: what a repeat of the request is answered. */
export interface StoredAnswer {
  request_hash: string;
  response: string;
}

/** A unique or primary-key violation, on either database (a racing duplicate, a taken case number). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Whether a unique violation is about the case number (then a new number is drawn). */
export function isCaseNumberViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const e = error as { message?: unknown; constraint?: unknown };
  return [e.message, e.constraint].some((v) => typeof v === 'string' && v.includes('case_number'));
}

/**
 * The statements every case write runs (issue 11): built and compiled once (db/prepared.ts) rather than
 * by Kysely on every call — the builder and compiler were ~10 % of a write's CPU. Same SQL as before.
 */
function writePathStatements(db: Kysely<DB>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // The case's row lock: PostgreSQL `SELECT … FOR UPDATE` (a no-change UPDATE, as before, wrote a new
  // row version for nothing); SQLite a plain read — the transaction holds the single writer already, and
  // the UPDATE wrote the row's page once more per write (issue 11).
  const lockForWrite = prepareStatement(
    db,
    (id: string) => {
      const read = db.selectFrom('cases').selectAll().where('id', '=', id);
      return postgres ? read.forUpdate() : read;
    },
    1,
  );
  const findWithAccess = prepareStatement(
    db,
    (userId: string, id: string) =>
      db
        .selectFrom('cases')
        .leftJoin('case_access', (join) =>
          join.onRef('case_access.case_id', '=', 'cases.id').on('case_access.user_id', '=', userId),
        )
        .selectAll('cases')
        .select('case_access.role as access_role')
        .where('cases.id', '=', id),
    2,
  );
  const findForWrite = prepareStatement(
    db,
    (accessUserId: string, keyUserId: string, key: string, id: string) =>
      db
        .selectFrom('cases')
        .leftJoin('case_access', (join) =>
          join.onRef('case_access.case_id', '=', 'cases.id').on('case_access.user_id', '=', accessUserId),
        )
        .leftJoin('case_idempotency_keys as stored', (join) =>
          join.on('stored.user_id', '=', keyUserId).on('stored.key', '=', key),
        )
        .selectAll('cases')
        .select([
          'case_access.role as access_role',
          'stored.request_hash as stored_request_hash',
          'stored.response as stored_response',
        ])
        .where('cases.id', '=', id),
    4,
  );
  // A case by id (access checks of other modules, the complaint set of a case).
  const findById = prepareStatement(db, (id: string) => db.selectFrom('cases').selectAll().where('id', '=', id), 1);
  const findIdempotencyKey = prepareStatement(
    db,
    (userId: string, key: string) =>
      db.selectFrom('case_idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key),
    2,
  );
  const insertIdempotencyKey = prepareStatement(
    db,
    (
      user_id: string,
      key: string,
      case_id: string,
      request_hash: string,
      status: number,
      response: string,
      created_at: string,
    ) =>
      db
        .insertInto('case_idempotency_keys')
        .values({ user_id, key, case_id, request_hash, status, response, created_at }),
    7,
  );
  const insertEvent = (
    id: string,
    case_id: string,
    seq: number,
    type: string,
    actor_user_id: string,
    created_at: string,
    client_created_at: string | null,
    payload: string,
  ) =>
    db
      .insertInto('case_events')
      .values({ id, case_id, seq, type, actor_user_id, created_at, client_created_at, payload });
  const insertOutbox = (event_id: string, case_id: string, seq: number, created_at: string) =>
    db.insertInto('case_outbox').values({ event_id, case_id, seq, created_at });
  type EventArgs = Parameters<typeof insertEvent>;
  type OutboxArgs = Parameters<typeof insertOutbox>;
  const eventStatement = prepareStatement(db, insertEvent, 8);
  const outboxStatement = prepareStatement(db, insertOutbox, 4);
  /** The case's columns a write changes, with the version and updated_at its event moves (`moves`). */
  const setCase = (columns: readonly string[], values: readonly unknown[]) =>
    Object.fromEntries(columns.map((column, i) => [column, values[i]])) as Updateable<CasesTable>;
  /**
   * Compiled once per set of changed columns (a case write changes a few known columns); bounded by the
   * table's columns, never more than a few dozen shapes.
   */
  function byShape<T>(build: (columns: readonly string[]) => T): (columns: readonly string[]) => T {
    const shapes = new Map<string, T>();
    return (columns) => {
      const shape = columns.join(',');
      let found = shapes.get(shape);
      if (!found) {
        found = build(columns);
        if (shapes.size < 256) shapes.set(shape, found);
      }
      return found;
    };
  }
  const update = byShape((columns) =>
    prepareStatement(
      db,
      (...args: unknown[]) =>
        db
          .updateTable('cases')
          .set(setCase(columns, args))
          .where('id', '=', args[columns.length] as string),
      columns.length + 1,
    ),
  );
  /**
   * PostgreSQL: the event, its outbox row and the case's update (its version, and the columns the write
   * changed) in ONE statement (data-modifying CTEs), one round trip where there were four. SQLite runs
   * in-process: the statements cost nothing extra apart (and SQLite has no data-modifying CTEs).
   */
  const appendAll = byShape((columns) =>
    prepareStatement(
      db,
      (...args: unknown[]) =>
        db
          .with('appended_event', () => insertEvent(...(args.slice(0, 8) as EventArgs)))
          .with('appended_outbox', () => insertOutbox(...(args.slice(8, 12) as OutboxArgs)))
          .updateTable('cases')
          .set(setCase(columns, args.slice(12)))
          .where('id', '=', args[12 + columns.length] as string),
      12 + columns.length + 1,
    ),
  );
  /** The columns of `changes` that are set (an undefined one is left as it is), in a fixed order. */
  const changed = (changes: Updateable<CasesTable>) =>
    Object.keys(changes).filter((column) => changes[column as keyof CasesTable] !== undefined);

  return {
    findById,
    lockForWrite,
    findWithAccess,
    findForWrite,
    findIdempotencyKey,
    insertIdempotencyKey,
    async appendEvent(trx: Transaction<DB>, event: RecordedCaseEvent, changes: Updateable<CasesTable>): Promise<void> {
      const row = eventRow(event);
      const eventArgs: EventArgs = [
        row.id,
        row.case_id,
        row.seq,
        row.type,
        row.actor_user_id,
        row.created_at,
        row.client_created_at ?? null,
        row.payload,
      ];
      const outboxArgs: OutboxArgs = [event.id, event.caseId, event.seq, event.createdAt];
      const moves = { ...changes, version: event.seq, updated_at: event.createdAt };
      const columns = changed(moves);
      const values = columns.map((column) => moves[column as keyof CasesTable]);
      if (postgres) {
        await appendAll(columns)(trx, ...eventArgs, ...outboxArgs, ...values, event.caseId);
        return;
      }
      await eventStatement(trx, ...eventArgs);
      await outboxStatement(trx, ...outboxArgs);
      await update(columns)(trx, ...values, event.caseId);
    },
    async updateCase(trx: Transaction<DB>, id: string, changes: Updateable<CasesTable>): Promise<void> {
      const columns = changed(changes);
      await update(columns)(trx, ...columns.map((column) => changes[column as keyof CasesTable]), id);
    },
  };
}
