/**
 * PostgreSQL parses, analyses and plans every unnamed statement anew, each time it is sent — on the
 * case write path that was about half of the database's CPU per event (issue 11). The queries built
 * once by db/prepared.ts are a small fixed set of SQL texts, so they go to PostgreSQL as named
 * statements: each connection parses and plans one once, then only binds and executes it (node-postgres
 * remembers per connection what it has prepared). Every other query is sent unnamed, as before, so
 * the statements a connection keeps stay bounded by the prepared set.
 *
 * A migration that changes a table under a kept statement (a rolling deploy: another process migrated)
 * makes PostgreSQL refuse its next run ("cached plan must not change result type"); that SQL then
 * gets a new name on every connection, so only the one query fails (its request answers 5xx and the
 * crew's outbox sends it again), not every later one.
 */
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { isPreparedSql } from './prepared.js';

/** PostgreSQL's feature_not_supported: what a kept plan whose result columns changed is refused with. */
const STALE_PLAN = '0A000';

const names = new Map<string, string>();
let issued = 0;

function nameOf(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined && isPreparedSql(sql)) {
    name = `inbound_${issued++}`;
    names.set(sql, name);
  }
  return name;
}

/** Kysely's pool over node-postgres, with the prepared queries sent as named statements. */
export function namedStatementPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  function wrap(client: pg.PoolClient): PostgresPoolClient {
    function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters: readonly unknown[] = []): unknown {
      // A cursor (Kysely's streaming) goes as it is: Kysely hands it the SQL itself.
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never);
      const values = [...parameters];
      const name = nameOf(sqlOrCursor);
      if (name === undefined) return client.query(sqlOrCursor, values);
      return client.query({ name, text: sqlOrCursor, values }).catch((error: unknown) => {
        if ((error as { code?: unknown }).code === STALE_PLAN) names.delete(sqlOrCursor);
        throw error;
      });
    }
    return { query, release: () => client.release() };
  }
  return {
    async connect() {
      const client = await pool.connect();
      // One wrapper per connection: Kysely keeps its connection object per client it is handed.
      let found = wrapped.get(client);
      if (!found) {
        found = wrap(client);
        wrapped.set(client, found);
      }
      return found;
    },
    end: () => pool.end(),
  };
}
