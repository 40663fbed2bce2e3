/**
 * The SQLite driver: one connection that writes, one that reads, and a fair queue for the writer.
 *
 * Kysely's own SQLite driver has a single connection behind a mutex. A transaction holds it across
 * awaits — on this server a group commit holds it for up to 128 writes — so every read of every other
 * request (sign-in check, idempotency lookup, access check, reference data) waited for the whole group;
 * and its mutex wakes every waiter on each release, only for all but one to wait again, which with
 * 200 waiting requests cost more CPU than the queries. Here:
 *
 * - a statement that only reads, run outside a transaction, goes to the reader connection at once. In
 *   WAL mode the reader sees the last committed state and never a transaction in progress, so a read
 *   can never show a write that is not yet durable (a replayed answer included);
 * - everything else — transactions, and writes outside one — takes the writer, in arrival order, one
 *   waiter woken per release.
 *
 * Statements are prepared once per connection and reused (the builder emits parameters, never inlined
 * values, so the set is small). Reuse is safe because a statement runs to completion synchronously —
 * streaming, which would hold one open across awaits, is refused. A read answers raw rows that an object
 * literal compiled for its columns turns into row objects (`rowBuilder`); a schema change made through
 * the writer drops every prepared statement, so no statement answers with columns it no longer has.
 *
 * Durability (wal-sync.ts): the writer commits with synchronous=NORMAL and the WAL is fsynced on the
 * thread pool. The writer lock is handed on as soon as COMMIT returns, so the next transaction runs
 * while the disk syncs; the committing caller is answered once its commit is on disk. A read answers
 * only once every commit its snapshot may hold is on disk (it runs, then waits if a sync is pending),
 * so no reader — a replayed idempotent answer, the outbox relay, a console — ever sees a write that a
 * crash could still take back. A rollback waits too: its transaction may have read such a write.
 */
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { WalSync } from './wal-sync.js';

const STATEMENT_CACHE_SIZE = 500;
const PRAGMA = /^\s*pragma\b/i;
/** A statement that changes the schema: what a prepared statement's `select *` stands for may change. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** Prepares each SQL text once per connection; the oldest statement goes when the cache is full. */
export class StatementCache {
  readonly #statements = new Map<string, SQLite.Statement>();

  constructor(readonly database: SQLite.Database) {}

  prepare(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      statement = this.database.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Forgets every statement (after a schema change: each is prepared again against the new schema). */
  clear(): void {
    this.#statements.clear();
  }
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A row object from a raw row (an array in the statement's column order): one object literal of the
 * statement's columns, compiled once. better-sqlite3 builds each row object from C++ one property at a
 * time, looking every column name up again; for the 58 columns of a case row that took ~20 µs, raw
 * values and this literal ~10 µs (issue 11). A name that repeats keeps the last value, as better-sqlite3
 * does; `__proto__` is written as a computed key, which defines a property instead of a prototype.
 */
export function rowBuilder(columns: readonly string[]): RowBuilder {
  const fields = columns.map((name, i) => {
    const key = JSON.stringify(name);
    return `${name === '__proto__' ? `[${key}]` : key}: values[${i}]`;
  });
  return new Function('values', `return { ${fields.join(', ')} };`) as RowBuilder;
}

/** Each reader statement's row builder; the statement answers raw rows once it has one. */
const rowBuilders = new WeakMap<SQLite.Statement, RowBuilder>();

/** A lock handed to waiters in arrival order: each release wakes exactly the next one. */
export class FairLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next)
      next(); // handed over: stays held
    else this.#held = false;
  }
}

function execute(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (statement.reader) {
    const build = rowBuilders.get(statement);
    if (build) return { rows: (statement.all(parameters) as unknown[][]).map(build) };
    statement.raw(true);
    const values = statement.all(parameters) as unknown[][];
    // Its columns read after it ran: SQLite prepares a statement again when the schema changed since.
    const built = rowBuilder(statement.columns().map((column) => column.name));
    rowBuilders.set(statement, built);
    return { rows: values.map(built) };
  }
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** What Kysely holds between acquiring and releasing a connection: a claim, not the connection itself. */
class Handle implements DatabaseConnection {
  /** Set from BEGIN until the connection is released: the writer lock is held for this handle. */
  holdsWriter = false;

  constructor(private readonly driver: ReadWriteSqliteDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.run(this, query) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield -- refuses before yielding anything
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming from SQLite is not supported: it would hold a statement open across awaits.');
  }
}

export class ReadWriteSqliteDriver implements Driver {
  readonly #writer: StatementCache;
  readonly #reader: StatementCache;
  readonly #lock = new FairLock();

  constructor(
    writer: SQLite.Database,
    reader: SQLite.Database,
    private readonly sync: WalSync,
  ) {
    this.#writer = new StatementCache(writer);
    this.#reader = new StatementCache(reader);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Handle(this);
  }

  async run(handle: Handle, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (handle.holdsWriter) return this.#write(this.#writer.prepare(query.sql), query);
    const statement = this.#writer.prepare(query.sql);
    // A pragma answers about its connection: the settings that matter (synchronous, journal mode,
    // foreign keys) are the writer's.
    const pragma = PRAGMA.test(query.sql);
    if (statement.readonly && !pragma) {
      const result = execute(this.#reader.prepare(query.sql), query.parameters);
      // The snapshot holds no commit after this one; answered once they are all on disk.
      const snapshot = this.sync.lastCommitted;
      if (!this.sync.isDurable(snapshot)) await this.sync.waitFor(snapshot);
      return result;
    }
    await this.#lock.acquire();
    let result: QueryResult<unknown>;
    try {
      result = this.#write(statement, query);
    } finally {
      this.#lock.release();
    }
    // A write outside a transaction committed by itself: answered once on disk. (A pragma writes no data.)
    if (!pragma) await this.sync.waitFor(this.sync.committed());
    return result;
  }

  /** A statement on the writer; after a schema change every prepared statement is prepared again. */
  #write(statement: SQLite.Statement, query: CompiledQuery): QueryResult<unknown> {
    const result = execute(statement, query.parameters);
    if (SCHEMA_CHANGE.test(query.sql)) {
      this.#writer.clear();
      this.#reader.clear();
    }
    return result;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const handle = connection as Handle;
    if (settings.isolationLevel || settings.accessMode) {
      throw new Error('SQLite transactions are serializable; isolation level and access mode are not settable.');
    }
    await this.#lock.acquire();
    handle.holdsWriter = true;
    try {
      this.#writer.prepare('begin').run();
    } catch (error) {
      handle.holdsWriter = false;
      this.#lock.release();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#inTransaction(connection, 'commit');
    const commit = this.sync.committed();
    this.#handOn(connection as Handle);
    await this.sync.waitFor(commit);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // After a COMMIT that returned but whose sync failed there is nothing left to roll back.
    if (!(connection as Handle).holdsWriter) return;
    await this.#inTransaction(connection, 'rollback');
    // What the transaction read may have been a commit not yet on disk; its outcome waits for that.
    const seen = this.sync.lastCommitted;
    this.#handOn(connection as Handle);
    await this.sync.waitFor(seen);
  }

  /** The transaction is over: the next waiter takes the writer while this one waits for the disk. */
  #handOn(handle: Handle): void {
    if (!handle.holdsWriter) return;
    handle.holdsWriter = false;
    this.#lock.release();
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'savepoint', name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'rollback to', name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#savepointCommand(connection, 'release', name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const handle = connection as Handle;
    if (!handle.holdsWriter) return;
    // A transaction whose COMMIT and ROLLBACK both failed must not leave the writer inside it.
    if (this.#writer.database.inTransaction) this.#writer.prepare('rollback').run();
    this.#handOn(handle);
  }

  async destroy(): Promise<void> {
    this.#reader.database.close();
    this.#writer.database.close();
    this.sync.close();
  }

  async #inTransaction(connection: DatabaseConnection, command: 'commit' | 'rollback'): Promise<void> {
    if (!(connection as Handle).holdsWriter) throw new Error(`${command} outside a transaction`);
    this.#writer.prepare(command).run();
  }

  async #savepointCommand(
    connection: DatabaseConnection,
    command: 'savepoint' | 'rollback to' | 'release',
    name: string,
    _compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    if (!(connection as Handle).holdsWriter) throw new Error(`${command} savepoint outside a transaction`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Unsafe savepoint name: ${name}`);
    this.#writer.prepare(`${command} ${name}`).run();
  }
}

/** Kysely's SQLite dialect (compiler, adapter, introspector) with the driver above. */
export class ReadWriteSqliteDialect extends SqliteDialect {
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: SQLite.Database,
    private readonly sync: WalSync,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new ReadWriteSqliteDriver(this.writer, this.reader, this.sync);
  }
}
