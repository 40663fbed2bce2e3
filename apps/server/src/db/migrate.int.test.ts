import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../test/databases.js';
import { migrateDownAll, migrateToLatest, migrations } from './migrate.js';

const dialects = await testDialects();

describe.each(dialects)('migrations on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrate: false });
  });
  afterAll(() => database.destroy());

  it('apply, are a no-op the second time, and undo cleanly', async () => {
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(database.db)).toEqual([]);
    await migrateDownAll(database.db);
    const tables = (await database.db.introspection.getTables())
      .map((t) => t.name)
      .filter((n) => !n.startsWith('kysely_'));
    expect(tables).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
  });
});
