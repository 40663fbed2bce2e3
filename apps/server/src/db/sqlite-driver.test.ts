import { afterEach, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { FairLock, rowBuilder } from './sqlite-driver.js';

type Items = { items: { id: number; v: string } };

describe('SQLite driver: a reader beside the writer', () => {
  let database: TestDatabase;
  afterEach(() => database.destroy());

  async function setUp() {
    database = await createTestDatabase('sqlite', { migrate: false });
    const db = database.db as unknown as Kysely<Items>;
    await sql`create table items (id integer primary key, v text not null)`.execute(db);
    return db;
  }

  const count = async (db: Kysely<Items>) =>
    Number(
      (
        await db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers a read while a transaction is open, with the committed state only', async () => {
    const db = await setUp();
    await db.insertInto('items').values({ id: 1, v: 'committed' }).execute();
    const seenDuring = await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 2, v: 'uncommitted' }).execute();
      expect(await count(trx)).toBe(2); // the transaction sees its own write
      // With one connection behind a mutex this read would wait for the commit, i.e. forever here.
      return count(db);
    });
    expect(seenDuring).toBe(1);
    expect(await count(db)).toBe(2); // and once committed, the reader sees it
  });

  it('never shows a rolled-back write to a reader', async () => {
    const db = await setUp();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 1, v: 'doomed' }).execute();
        throw new Error('fail the transaction');
      }),
    ).rejects.toThrow('fail the transaction');
    expect(await count(db)).toBe(0);
    // The writer was released: the next transaction runs.
    await db.transaction().execute((trx) => trx.insertInto('items').values({ id: 1, v: 'next' }).execute());
    expect(await count(db)).toBe(1);
  });

  it('makes a write outside a transaction wait for the open one, then run', async () => {
    const db = await setUp();
    const order: string[] = [];
    let outside: Promise<unknown> = Promise.resolve();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 1, v: 'in transaction' }).execute();
      outside = db
        .insertInto('items')
        .values({ id: 2, v: 'outside' })
        .execute()
        .then(() => order.push('outside write'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('commit');
    });
    await outside;
    expect(order).toEqual(['commit', 'outside write']);
    expect(await count(db)).toBe(2);
  });

  it('answers pragmas about the writer (durability settings)', async () => {
    const db = await setUp();
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    // NORMAL: the WAL is synced by wal-sync.ts before anyone is answered (see the tests below).
    expect(sync.rows[0]?.synchronous).toBe(1);
  });

  it('refuses streaming, which would hold a statement open across awaits', async () => {
    const db = await setUp();
    const stream = async () => {
      for await (const row of db.selectFrom('items').selectAll().stream()) void row;
    };
    await expect(stream()).rejects.toThrow(/Streaming from SQLite is not supported/);
  });

  it('answers rows as better-sqlite3 would: every column in order, a repeated name keeping the last', async () => {
    const db = await setUp();
    await db.insertInto('items').values({ id: 1, v: 'one' }).execute();
    const query = sql<Record<string, unknown>>`select id, v, null as empty, x'ff00' as bytes, 2.5 as half,
      'first' as twice, 'second' as twice, 'quote"and\\' as "we""ird" from items`;
    const plain = new Sqlite(':memory:');
    plain.exec(`create table items (id integer primary key, v text not null); insert into items values (1, 'one')`);
    const expected = plain.prepare(query.compile(db).sql).all();
    // The same query against the real database, through the driver (a reader statement, raw rows):
    const { rows } = await query.execute(db);
    expect(rows).toEqual(expected);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'v', 'empty', 'bytes', 'half', 'twice', 'we"ird']);
    expect(rows[0]!.twice).toBe('second');
    expect(Buffer.isBuffer(rows[0]!.bytes)).toBe(true);
  });

  it('makes a column named __proto__ a property of the row, never its prototype', () => {
    const row = rowBuilder(['id', '__proto__'])([1, { polluted: true }]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    expect((row as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('sees a column added after a `select *` was prepared', async () => {
    const db = await setUp();
    await db.insertInto('items').values({ id: 1, v: 'one' }).execute();
    const everything = () => sql<Record<string, unknown>>`select * from items`.execute(db);
    expect((await everything()).rows).toEqual([{ id: 1, v: 'one' }]);
    await sql`alter table items add column w text not null default 'new'`.execute(db);
    expect((await everything()).rows).toEqual([{ id: 1, v: 'one', w: 'new' }]);
  });
});

describe('fair lock', () => {
  it('hands the lock to waiters in arrival order, one per release', async () => {
    const lock = new FairLock();
    const order: number[] = [];
    await lock.acquire();
    const waiters = [1, 2, 3].map((n) =>
      lock.acquire().then(() => {
        order.push(n);
      }),
    );
    await Promise.resolve();
    expect(order).toEqual([]);
    lock.release();
    await waiters[0];
    expect(order).toEqual([1]);
    lock.release();
    lock.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    lock.release();
    await lock.acquire(); // free again: taken at once
  });
});
