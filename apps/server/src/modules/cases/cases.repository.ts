/**
 * Cases, their event log, tags, tag values, access list, idempotency keys and feedback. Queries only.
 * Writes take the transaction they belong to (`Executor`): the service opens one per change, so the
 * event and the case's current state commit together or not at all.
 */
import { PostgresAdapter, sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
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
import { AUDIT_TABLES, GENESIS_HASH, rowHash, rowHashText } from '../audit/audit-chain.js';
import { securityAuditEntry } from '../audit/security-audit.js';
import { isMediaEvent } from '../../db/media-events.js';
import type { CaseWithRole } from './case-access.js';

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

  /**
   * The audit rows of the case events appended in a transaction, by chain, waiting for the write's last
   * statement (`finishWrite`): the head of each chain has moved (and on PostgreSQL is row-locked), so
   * the rows are chained here, each on the one before, and written together.
   */
  const waitingAudit = new WeakMap<Transaction<DB>, Map<string, AuditWrite>>();

  /** Writes the transaction's waiting audit rows, with the write's idempotency key when it has one. */
  async function finishWrite(trx: Transaction<DB>, key: Insertable<CaseIdempotencyKeysTable> | null): Promise<void> {
    const chains = [...(waitingAudit.get(trx)?.values() ?? [])];
    waitingAudit.delete(trx);
    const keyValues: KeyValues | null = key
      ? [key.user_id, key.key, key.case_id, key.request_hash, key.status, key.response, key.created_at]
      : null;
    if (chains.length === 0) {
      if (keyValues) await statements.insertIdempotencyKey(trx, ...keyValues);
      return;
    }
    // The key goes with the last chain's rows (a write appends to one chain, a case's, but a caller's
    // transaction may hold events of two cases).
    for (const [i, audit] of chains.entries())
      await statements.writeAudit(trx, audit, i === chains.length - 1 ? keyValues : null);
  }

  return {
    /**
     * Runs `work` in one transaction: all its writes commit (durably) together, or none does. Audit rows
     * of events `work` appended and left waiting are written at its end.
     */
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return run(async (trx) => {
        try {
          const result = await work(trx);
          await finishWrite(trx, null);
          return result;
        } finally {
          waitingAudit.delete(trx); // a failed write's rows go with its rollback
        }
      });
    },

    /**
     * The last statement of a write that appended case events: their audit rows and the write's
     * idempotency key with its answer (PostgreSQL: one round trip). A write in a caller's transaction
     * (`null` key) calls it before that transaction commits; `transaction` does on its own.
     */
    finishWrite,

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
    ): Promise<{ stored: StoredAnswer | null; found: (CaseWithRole & { rowVersion: RowVersion | null }) | null }> {
      const read = (await statements.findForWrite(db, userId, userId, key, id)).rows[0];
      if (!read) {
        const known = (await statements.findIdempotencyKey(db, userId, key)).rows[0];
        return { stored: known ? { request_hash: known.request_hash, response: known.response } : null, found: null };
      }
      const { access_role, stored_request_hash, stored_response, row_version, ...row } = read;
      const stored =
        stored_request_hash === null || stored_response === null
          ? null
          : { request_hash: stored_request_hash, response: stored_response };
      return { stored, found: { row, role: access_role, rowVersion: row_version } };
    },

    /**
     * PostgreSQL: takes the case's row lock and throws `StaleCase` when the row is no longer the version
     * read before the transaction — for a write that recorded no event, so whose row was never checked.
     */
    async confirmUnchanged(trx: Transaction<DB>, id: string, version: RowVersion): Promise<void> {
      const now = (await statements.lockedRowVersion(trx, id)).rows[0]?.row_version;
      if (now !== version) throw new StaleCase();
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
     * columns the event records in the same UPDATE, and moves the head of its audit chain — all in the
     * caller's transaction. The audit row waits for the write's last statement (`finishWrite`).
     */
    async appendEvent(
      trx: Transaction<DB>,
      event: RecordedCaseEvent,
      changes: Updateable<CasesTable> = {},
      expected: RowVersion | null = null,
    ): Promise<void> {
      const { chain, row } = caseEventAudit(event);
      const moved = await statements.appendEvent(trx, event, changes, chain, expected);
      // Checked, no head answered: the case moved since it was read (or, once per chain, there is no head
      // yet); the write is made again under the row lock, which creates a missing head.
      if (!moved && expected !== null) throw new StaleCase();
      const head = moved ?? (await statements.startChain(trx, chain));
      if (!head) throw new Error(`audit chain ${chain}: head row missing`);
      let waiting = waitingAudit.get(trx);
      if (!waiting) waitingAudit.set(trx, (waiting = new Map()));
      const before = waiting.get(chain);
      // The head answers its new number and the hash it holds; a row of this write still waiting is
      // the one before, whose hash the head does not hold yet.
      const seq = Number(head.seq);
      const prevHash = before?.hash ?? head.hash;
      const hash = rowHash('security_audit', chain, seq, prevHash, row);
      const values = [...AUDIT_TABLES.security_audit.map((column) => row[column]), chain, seq, prevHash, hash];
      if (before) {
        before.values.push(...values);
        before.hash = hash;
      } else waiting.set(chain, { chain, values, hash });
    },

    /**
     * PostgreSQL (`writesAlone`): a change of the case that records one event and nothing else, as one
     * statement on its own (decision 0054) — the event, its outbox row, the case's `changes` checked by
     * the row version read before (`expected`), the audit row on its chain and the idempotency key, all
     * or nothing. False when nothing was written: the case moved since it was read (or its audit chain has
     * no head yet); the write is then made again under the row lock. Throws a unique violation as a
     * transaction would (a racing duplicate's key, another write's event number).
     */
    writesAlone: statements.writesAlone,
    writeAlone(
      event: RecordedCaseEvent,
      changes: Updateable<CasesTable>,
      expected: RowVersion,
      key: Insertable<CaseIdempotencyKeysTable>,
    ): Promise<boolean> {
      return statements.writeAlone(event, changes, expected, caseEventAudit(event), [
        key.user_id,
        key.key,
        key.case_id,
        key.request_hash,
        key.status,
        key.response,
        key.created_at,
      ]);
    },

    /** The case's photo, id, ekg, video and voicememo events, oldest first. */
    mediaEvents(caseId: string, executor: Executor = db) {
      return executor
        .selectFrom('case_events')
        .select(['type', 'payload'])
        .where('case_id', '=', caseId)
        .where(isMediaEvent)
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

/** Who changed which case, chained with the change (issue 17); the payload stays out. */
function caseEventAudit(event: RecordedCaseEvent) {
  return securityAuditEntry({
    actorId: event.actorUserId || null,
    action: `case.${event.type}`,
    entityType: 'case',
    entityId: event.caseId,
    caseId: event.caseId,
    detail: { eventId: event.id, seq: event.seq },
    at: new Date(event.createdAt),
  });
}

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

/**
 * A case row's version as PostgreSQL keeps it (`xmin`: the transaction that wrote this version of the
 * row; any change of any column makes a new one). Null on SQLite, whose writes take the lock read.
 */
export type RowVersion = string;

/** The case changed between the read before a write's transaction and the write: make it again, locked. */
export class StaleCase extends Error {
  constructor() {
    super('the case changed since it was read');
  }
}

/** A second event with the same number for a case: another write appended first. */
export function isEventNumberViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const e = error as { message?: unknown; constraint?: unknown };
  return [e.message, e.constraint].some(
    (v) => typeof v === 'string' && (v.includes('case_events_case_seq_uq') || v.includes('case_events.case_id')),
  );
}

/** Whether a unique violation is about the case number (then a new number is drawn). */
export function isCaseNumberViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const e = error as { message?: unknown; constraint?: unknown };
  return [e.message, e.constraint].some((v) => typeof v === 'string' && v.includes('case_number'));
}

/** The security audit row's columns as written (its content, then its place in the chain). */
const AUDIT_COLUMNS = [...AUDIT_TABLES.security_audit, 'chain', 'seq', 'prev_hash', 'hash'] as const;
const KEY_COLUMNS = ['user_id', 'key', 'case_id', 'request_hash', 'status', 'response', 'created_at'] as const;
type KeyValues = [string, string, string, string, number, string, string];

/** One chain's audit rows of a write (each AUDIT_COLUMNS, one after the other), and its head's new hash. */
interface AuditWrite {
  chain: string;
  values: unknown[];
  hash: string;
}

/**
 * The statements every case write runs (issue 11): built and compiled once (db/prepared.ts) rather than
 * by Kysely on every call — the builder and compiler were ~10 % of a write's CPU. On PostgreSQL each is
 * also a named statement, planned once per connection (decision 0045).
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
          (postgres ? sql<RowVersion | null>`cases.xmin::text` : sql<null>`null`).as('row_version'),
        ])
        .where('cases.id', '=', id),
    4,
  );
  const lockedRowVersion = prepareStatement(
    db,
    (id: string) =>
      db
        .selectFrom('cases')
        .select(sql<RowVersion>`xmin::text`.as('row_version'))
        .where('id', '=', id)
        .forUpdate(),
    1,
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
  function byShape<Shape, T>(key: (shape: Shape) => string, build: (shape: Shape) => T): (shape: Shape) => T {
    const shapes = new Map<string, T>();
    return (shape) => {
      const name = key(shape);
      let found = shapes.get(name);
      if (!found) {
        found = build(shape);
        if (shapes.size < 256) shapes.set(name, found);
      }
      return found;
    };
  }
  const byColumns = <T>(build: (columns: readonly string[]) => T) =>
    byShape((columns: readonly string[]) => columns.join(','), build);
  const update = byColumns((columns) =>
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
  const moveHead = prepareStatement(
    db,
    (chain: string) =>
      db
        .updateTable('audit_chain_heads')
        .set({ seq: sql<number>`seq + 1` })
        .where('chain', '=', chain)
        .returning(['seq', 'hash']),
    1,
  );
  const createHead = prepareStatement(
    db,
    (chain: string, hash: string) =>
      db
        .insertInto('audit_chain_heads')
        .values({ chain, seq: 0, hash })
        .onConflict((oc) => oc.column('chain').doNothing()),
    2,
  );
  /**
   * PostgreSQL: the event, its outbox row, the case's update (its version, and the columns the write
   * changed) and the move of its audit chain's head in ONE statement (data-modifying CTEs), one round
   * trip where there were five. SQLite runs in-process: the statements cost nothing extra apart (and
   * SQLite has no data-modifying CTEs).
   */
  const appendAll = byShape(
    ({ columns, checked }: { columns: readonly string[]; checked: boolean }) => `${columns.join(',')}:${checked}`,
    ({ columns, checked }) =>
      prepareStatement(
        db,
        (...args: unknown[]) => {
          const appended = db
            .with('appended_event', () => insertEvent(...(args.slice(0, 8) as EventArgs)))
            .with('appended_outbox', () => insertOutbox(...(args.slice(8, 12) as OutboxArgs)));
          const moveCase = () =>
            db
              .updateTable('cases')
              .set(setCase(columns, args.slice(12)))
              .where('id', '=', args[12 + columns.length] as string);
          const moveHead = appended
            .with('moved_case', () =>
              checked
                ? // Only the row version read before the transaction: none moved, no head moves or answers.
                  moveCase()
                    .where(sql`xmin`, '=', sql`cast(${args[14 + columns.length]} as xid)`)
                    .returning('id')
                : moveCase().returning('id'),
            )
            .updateTable('audit_chain_heads')
            .set({ seq: sql<number>`seq + 1` })
            .where('chain', '=', args[13 + columns.length] as string);
          return (
            checked
              ? moveHead.where(({ exists, selectFrom }) => exists(selectFrom('moved_case').select('id')))
              : moveHead
          ).returning(['seq', 'hash']);
        },
        12 + columns.length + 2 + (checked ? 1 : 0),
      ),
  );
  /** A write's audit rows (`rows` of them, each its AUDIT_COLUMNS), one chain's. */
  const insertAudit = (rows: number, values: readonly unknown[]) =>
    db
      .insertInto('security_audit')
      .values(
        Array.from(
          { length: rows },
          (_, row) =>
            Object.fromEntries(
              AUDIT_COLUMNS.map((column, i) => [column, values[row * AUDIT_COLUMNS.length + i]]),
            ) as never,
        ),
      );
  const setHeadHash = (hash: string, chain: string) =>
    db.updateTable('audit_chain_heads').set({ hash }).where('chain', '=', chain);
  /**
   * The write's last statement: its audit rows, their chain head's hash and (when the write has one)
   * its idempotency key. PostgreSQL: one statement; SQLite: two or three. Compiled once per number of
   * rows (one per event of the write) and whether a key goes with them.
   */
  const writeAudit = byShape(
    ({ rows, key }: { rows: number; key: boolean }) => `${rows}:${key}`,
    ({ rows, key }) => {
      const arity = rows * AUDIT_COLUMNS.length;
      if (!postgres) {
        const insert = prepareStatement(db, (...values: unknown[]) => insertAudit(rows, values), arity);
        const hash = prepareStatement(db, setHeadHash, 2);
        return async (trx: Transaction<DB>, audit: AuditWrite, keyValues: KeyValues | null) => {
          await insert(trx, ...audit.values);
          await hash(trx, audit.hash, audit.chain);
          if (keyValues) await insertIdempotencyKey(trx, ...keyValues);
        };
      }
      const statement = prepareStatement(
        db,
        (...args: unknown[]) => {
          const hash = args[arity] as string;
          const chain = args[arity + 1] as string;
          const appended = db.with('appended_audit', () => insertAudit(rows, args.slice(0, arity)));
          return key
            ? appended
                .with('moved_head', () => setHeadHash(hash, chain))
                .insertInto('case_idempotency_keys')
                .values(
                  Object.fromEntries(
                    KEY_COLUMNS.map((column, i) => [column, args[arity + 2 + i]]),
                  ) as Insertable<CaseIdempotencyKeysTable>,
                )
            : appended.updateTable('audit_chain_heads').set({ hash }).where('chain', '=', chain);
        },
        arity + 2 + (key ? KEY_COLUMNS.length : 0),
      );
      return async (trx: Transaction<DB>, audit: AuditWrite, keyValues: KeyValues | null) => {
        await statement(trx, ...audit.values, audit.hash, audit.chain, ...(keyValues ?? []));
      };
    },
  );
  /**
   * PostgreSQL: a write of one event as ONE statement, run on its own (autocommitted: no `begin`, no
   * `commit`; decision 0054). The case's update, checked by the row version read before it and only where
   * the case's audit chain has a head; the head's move, with the new row's hash computed in SQL from the
   * text `rowHash` hashes (`rowHashText`) and the hash the head held; the event, its outbox row, the audit
   * row and the idempotency key, each only when the head moved. Answers the head's new number, or nothing
   * when nothing was written (the case moved since it was read, or its chain has no head yet).
   */
  const writeAlone = byColumns((columns) =>
    prepareStatement(
      db,
      (...args: unknown[]) => {
        let next = 0;
        const take = (count: number) => args.slice(next, (next += count));
        const values = take(columns.length);
        const [caseId, rowVersion, caseChain] = take(3);
        const [before, after, headChain] = take(3);
        const [eventId, eventCase, eventSeq, type, actor, createdAt, clientCreatedAt, payload] = take(8);
        const [outboxEvent, outboxCase, outboxSeq, outboxCreatedAt] = take(4);
        const audit = take(AUDIT_TABLES.security_audit.length);
        const [auditChain] = take(1);
        const [keyUser, key, keyCase, requestHash, status, response, keyCreatedAt] = take(KEY_COLUMNS.length);
        const set = sql.join(columns.map((column, i) => sql`${sql.ref(column)} = ${values[i]}`));
        const statement = sql<{ seq: number }>`
          with moved_case as (
            update "cases" set ${set}
            where id = ${caseId} and xmin = cast(${rowVersion} as xid)
              and exists (select 1 from audit_chain_heads where chain = ${caseChain})
            returning id
          ), moved_head as (
            update audit_chain_heads
            set seq = seq + 1, prev_hash = hash,
              hash = encode(sha256(convert_to(
                cast(${before} as text) || (seq + 1)::text || ',"' || hash || '",' || cast(${after} as text), 'UTF8')), 'hex')
            where chain = ${headChain} and exists (select 1 from moved_case)
            returning seq, prev_hash, hash
          ), appended_event as (
            insert into case_events (id, case_id, seq, type, actor_user_id, created_at, client_created_at, payload)
            select ${eventId}, ${eventCase}, cast(${eventSeq} as integer), ${type}, ${actor}, ${createdAt},
              ${clientCreatedAt}, ${payload}
            from moved_head
          ), appended_outbox as (
            insert into case_outbox (event_id, case_id, seq, created_at)
            select ${outboxEvent}, ${outboxCase}, cast(${outboxSeq} as integer), ${outboxCreatedAt} from moved_head
          ), appended_audit as (
            insert into security_audit (${sql.join(AUDIT_COLUMNS.map((column) => sql.ref(column)))})
            select ${sql.join(audit)}, ${auditChain}, seq, prev_hash, hash
            from moved_head
          ), kept_key as (
            insert into case_idempotency_keys (${sql.join(KEY_COLUMNS.map((column) => sql.ref(column)))})
            select ${keyUser}, ${key}, ${keyCase}, ${requestHash}, cast(${status} as integer), ${response}, ${keyCreatedAt}
            from moved_head
          )
          select seq from moved_head`;
        return { compile: () => statement.compile(db) };
      },
      columns.length + 34,
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
    lockedRowVersion,
    writesAlone: postgres,
    /** `writeAlone`'s statement for the changes' columns (with the version and updated_at the event moves). */
    async writeAlone(
      event: RecordedCaseEvent,
      changes: Updateable<CasesTable>,
      expected: RowVersion,
      audit: { chain: string; row: Record<string, string | number | null> },
      key: KeyValues,
    ): Promise<boolean> {
      const row = eventRow(event);
      const moves = { ...changes, version: event.seq, updated_at: event.createdAt };
      const columns = changed(moves);
      const { before, after } = rowHashText('security_audit', audit.chain, audit.row);
      const result = await writeAlone(columns)(
        db,
        ...columns.map((column) => moves[column as keyof CasesTable]),
        event.caseId,
        expected,
        audit.chain,
        before,
        after,
        audit.chain,
        row.id,
        row.case_id,
        row.seq,
        row.type,
        row.actor_user_id,
        row.created_at,
        row.client_created_at ?? null,
        row.payload,
        event.id,
        event.caseId,
        event.seq,
        event.createdAt,
        ...AUDIT_TABLES.security_audit.map((column) => audit.row[column] ?? null),
        audit.chain,
        ...key,
      );
      return result.rows.length > 0;
    },
    writeAudit: (trx: Transaction<DB>, audit: AuditWrite, key: KeyValues | null) =>
      writeAudit({ rows: audit.values.length / AUDIT_COLUMNS.length, key: key !== null })(trx, audit, key),
    /**
     * The event, its outbox row and the case's update; answers its chain's head as moved (none: no head
     * yet, or — `expected` given, PostgreSQL — the case's row is no longer that version: nothing updated).
     */
    async appendEvent(
      trx: Transaction<DB>,
      event: RecordedCaseEvent,
      changes: Updateable<CasesTable>,
      chain: string,
      expected: RowVersion | null,
    ): Promise<{ seq: number; hash: string } | undefined> {
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
        const checked = expected !== null;
        const args = [...eventArgs, ...outboxArgs, ...values, event.caseId, chain, ...(checked ? [expected] : [])];
        return (await appendAll({ columns, checked })(trx, ...args)).rows[0];
      }
      await eventStatement(trx, ...eventArgs);
      await outboxStatement(trx, ...outboxArgs);
      await update(columns)(trx, ...values, event.caseId);
      return (await moveHead(trx, chain)).rows[0];
    },
    /** A chain's first row: its head, from the genesis hash, then moved. */
    async startChain(trx: Transaction<DB>, chain: string): Promise<{ seq: number; hash: string } | undefined> {
      await createHead(trx, chain, GENESIS_HASH);
      return (await moveHead(trx, chain)).rows[0];
    },
    async updateCase(trx: Transaction<DB>, id: string, changes: Updateable<CasesTable>): Promise<void> {
      const columns = changed(changes);
      await update(columns)(trx, ...columns.map((column) => changes[column as keyof CasesTable]), id);
    },
  };
}
