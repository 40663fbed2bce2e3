import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { prepareStatement } from './prepared.js';
import type { DB } from './schema.js';
import { createTestDatabase, insertBareAgencies, testDialects, type TestDatabase } from '../test/databases.js';

const dialects = await testDialects();

/** The SQL texts the connection of `executor` keeps prepared under a name. */
async function keptStatements(executor: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(executor);
  return rows.map((row) => row.statement);
}

describe.runIf(dialects.includes('postgres'))('named statements on postgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await insertBareAgencies(database.db, ['a']);
  });
  afterAll(() => database.destroy());

  it('keeps the prepared queries named on their connection, and only them', async () => {
    const { db } = database;
    const nameOf = prepareStatement(
      db,
      (id: string) => db.selectFrom('agencies').select('name').where('id', '=', id),
      1,
    );
    await db.connection().execute(async (connection) => {
      expect((await nameOf(connection, 'a')).rows).toEqual([{ name: 'Agency a' }]);
      expect((await nameOf(connection, 'b')).rows).toEqual([]);
      await connection.selectFrom('agencies').select('id').where('id', '=', 'a').execute(); // built each time
      const kept = await keptStatements(connection);
      expect(kept.filter((text) => text.startsWith('select "name" from "agencies"'))).toHaveLength(1);
      expect(kept.some((text) => text.startsWith('select "id" from "agencies"'))).toBe(false);
    });
  });

  it('after a table changes under a kept statement, fails that one run and prepares it anew', async () => {
    const { db } = database;
    const agency = prepareStatement(db, (id: string) => db.selectFrom('agencies').selectAll().where('id', '=', id), 1);
    await db.connection().execute(async (connection) => {
      expect((await agency(connection, 'a')).rows).toHaveLength(1);
      // Another process's migration (a rolling deploy) adds a column: the kept plan's result changed.
      await sql`alter table agencies add column probe text`.execute(db);
      await expect(agency(connection, 'a')).rejects.toMatchObject({ code: '0A000' });
      const [row] = (await agency(connection, 'a')).rows;
      expect(row).toMatchObject({ id: 'a', probe: null });
    });
  });
});
