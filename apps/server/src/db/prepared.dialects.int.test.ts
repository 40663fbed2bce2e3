import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { prepareListQuery, prepareQuery } from './prepared.js';
import { createTestDatabase, insertBareAgencies, testDialects, type TestDatabase } from '../test/databases.js';

const dialects = await testDialects();

describe.each(dialects)('prepareQuery on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await insertBareAgencies(database.db, ['a', 'b']);
  });
  afterAll(() => database.destroy());

  it('answers as the built query does, for each call with its own values', async () => {
    const { db } = database;
    const byIdAndName = prepareQuery(
      db,
      (id: string, name: string) =>
        db.selectFrom('agencies').select(['id', 'name']).where('id', '=', id).where('name', '=', name).limit(5),
      2,
    );
    expect(await byIdAndName('a', 'Agency a')).toEqual([{ id: 'a', name: 'Agency a' }]);
    expect(await byIdAndName('b', 'Agency b')).toEqual([{ id: 'b', name: 'Agency b' }]);
    expect(await byIdAndName('a', 'Agency b')).toEqual([]);
    // A value that looks like SQL is still a bound parameter.
    expect(await byIdAndName("a' or '1'='1", 'x')).toEqual([]);
  });

  it('prepares a list query once per length', async () => {
    const { db } = database;
    const byIds = prepareListQuery(db, (ids) =>
      db.selectFrom('agencies').select('id').where('id', 'in', ids).orderBy('id'),
    );
    expect(await byIds(['a'])).toEqual([{ id: 'a' }]);
    expect(await byIds(['b'])).toEqual([{ id: 'b' }]);
    expect(await byIds(['b', 'a'])).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await byIds(['a', 'nowhere', 'b'])).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('refuses a query whose argument does not reach the parameters exactly once', () => {
    const { db } = database;
    const unused = prepareQuery(db, (_id: string) => db.selectFrom('agencies').select('id'), 1);
    return expect(unused('a')).rejects.toThrow(/argument 0 appears 0 times/);
  });

  it('refuses a stand-in that is transformed on its way to SQL', () => {
    const { db } = database;
    const twice = prepareQuery(
      db,
      (id: string) =>
        db
          .selectFrom('agencies')
          .select('id')
          .where('id', '=', id)
          .where(sql<boolean>`${id} = ${id}`),
      1,
    );
    return expect(twice('a')).rejects.toThrow(/appears 3 times/);
  });
});
