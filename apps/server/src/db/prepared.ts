/**
 * Queries built and compiled once. Kysely builds a query as an immutable tree and compiles it to SQL on
 * every call — on the hot reads (a team: six queries) that was more CPU than SQLite's own work. A
 * prepared query is built once with stand-ins for its arguments, compiled by the database's own dialect
 * (so the SQL is right for SQLite and PostgreSQL alike), and each call only puts the values in place of
 * the stand-ins and runs it. Values are still sent as bound parameters, never inlined into the SQL.
 *
 * Only for queries whose shape does not depend on the values: a stand-in must reach the compiled
 * parameters exactly once and as it is (an `in` list, whose length changes the SQL, cannot be prepared).
 */
import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema.js';

/** The SQL of every query compiled here: what postgres-named-statements.ts sends as named statements. */
const preparedSql = new Set<string>();
export const isPreparedSql = (sql: string): boolean => preparedSql.has(sql);

/** Distinct objects: never equal to a real value, so each is found exactly where its argument goes. */
const standIn = (index: number) => Object.freeze({ preparedArgument: index });

export function prepareQuery<Args extends unknown[], Row>(
  db: Kysely<DB>,
  build: (...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (...args: Args) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; slots: number[] } | null = null;
  const compile = () => {
    const standIns = Array.from({ length: arity }, (_, index) => standIn(index));
    const query = build(...(standIns as Args)).compile();
    const slots = query.parameters.map((parameter) => standIns.indexOf(parameter as ReturnType<typeof standIn>));
    for (let index = 0; index < arity; index++) {
      const uses = slots.filter((slot) => slot === index).length;
      if (uses !== 1) throw new Error(`prepareQuery: argument ${index} appears ${uses} times in ${query.sql}`);
    }
    preparedSql.add(query.sql);
    return { query, slots };
  };
  return async (...args) => {
    compiled ??= compile();
    const { query, slots } = compiled;
    const parameters = query.parameters.map((parameter, i) => (slots[i] === -1 ? parameter : args[slots[i]!]));
    // The compiled query with this call's values (its tree and id kept: the executor may look at both).
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}

/** Lists longer than this are not kept prepared (each length is its own SQL). */
const MAX_PREPARED_LIST_LENGTH = 64;

/**
 * A query over a list of values (`where id in (…)`): prepared once per list length, since the length
 * is part of the SQL. An empty list is the caller's to answer (SQL has no empty `in ()`).
 */
export function prepareListQuery<Row>(
  db: Kysely<DB>,
  build: (values: string[]) => Compilable<Row>,
): (values: readonly string[]) => Promise<Row[]> {
  const byLength = new Map<number, (...values: string[]) => Promise<Row[]>>();
  return (values) => {
    let run = byLength.get(values.length);
    if (!run) {
      run = prepareQuery(db, (...args: string[]) => build(args), values.length);
      if (values.length <= MAX_PREPARED_LIST_LENGTH) byLength.set(values.length, run);
    }
    return run(...values);
  };
}

/**
 * Like `prepareQuery`, for the write path: built and compiled once, run on the executor of each call —
 * the request's transaction, or the database — and answering the whole result (rows, affected rows).
 * Compiled with `db`, whose dialect is the transaction's.
 */
export function prepareStatement<Args extends unknown[], Row>(
  db: Kysely<DB>,
  build: (...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (executor: Pick<Kysely<DB>, 'executeQuery'>, ...args: Args) => Promise<QueryResult<Row>> {
  let compiled: { query: CompiledQuery<Row>; slots: number[] } | null = null;
  const compile = () => {
    const standIns = Array.from({ length: arity }, (_, index) => standIn(index));
    const query = build(...(standIns as Args)).compile();
    const slots = query.parameters.map((parameter) => standIns.indexOf(parameter as ReturnType<typeof standIn>));
    for (let index = 0; index < arity; index++) {
      const uses = slots.filter((slot) => slot === index).length;
      if (uses !== 1) throw new Error(`prepareStatement: argument ${index} appears ${uses} times in ${query.sql}`);
    }
    preparedSql.add(query.sql);
    return { query, slots };
  };
  return (executor, ...args) => {
    compiled ??= compile();
    const { query, slots } = compiled;
    const parameters = query.parameters.map((parameter, i) => (slots[i] === -1 ? parameter : args[slots[i]!]));
    return executor.executeQuery<Row>({ ...query, parameters });
  };
}
