import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { createGroupCommit } from './group-commit.js';

describe('group commit on SQLite', () => {
  let database: TestDatabase;
  afterEach(() => database.destroy());

  async function setUp() {
    database = await createTestDatabase('sqlite', { migrate: false });
    const db = database.db as unknown as Kysely<{ items: { id: number; v: string } }>;
    await sql`create table items (id integer primary key, v text not null unique)`.execute(db);
    return db;
  }

  it('commits the transactions that queue up together, with one COMMIT, and answers each after it', async () => {
    const db = await setUp();
    const groups: number[] = [];
    const transact = createGroupCommit(db, { onCommit: (size) => groups.push(size) });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transact(async (trx) => {
          await trx
            .insertInto('items')
            .values({ id: i, v: `v${i}` })
            .execute();
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(groups).toEqual([20]);
    // Committed: another connection to the file sees every row.
    const other = new SQLite(database.location, { readonly: true });
    expect(other.prepare('select count(*) as n from items').get()).toEqual({ n: 20 });
    other.close();
  });

  it('rolls a failing transaction back alone; the others of its group commit', async () => {
    const db = await setUp();
    const transact = createGroupCommit(db);
    const outcomes = await Promise.allSettled([
      transact((trx) => trx.insertInto('items').values({ id: 1, v: 'a' }).execute()),
      transact(async (trx) => {
        await trx.insertInto('items').values({ id: 2, v: 'b' }).execute();
        await trx.insertInto('items').values({ id: 3, v: 'a' }).execute(); // unique violation
      }),
      transact((trx) => trx.insertInto('items').values({ id: 4, v: 'c' }).execute()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await db.selectFrom('items').select('id').orderBy('id').execute();
    expect(rows.map((r) => r.id)).toEqual([1, 4]);
  });

  it('caps a group and carries the rest to the next one', async () => {
    const db = await setUp();
    const groups: number[] = [];
    const transact = createGroupCommit(db, { maxGroup: 4, onCommit: (size) => groups.push(size) });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        transact((trx) =>
          trx
            .insertInto('items')
            .values({ id: i, v: `v${i}` })
            .execute(),
        ),
      ),
    );
    expect(groups).toEqual([4, 4, 2]);
  });
});
