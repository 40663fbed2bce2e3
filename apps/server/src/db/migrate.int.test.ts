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

  // Every migration up, down and up again (three passes over ~45 on PostgreSQL): slower than one request
  // test, and 20 s was passed on a busy machine.
  it('apply, are a no-op the second time, and undo cleanly', { timeout: 90_000 }, async () => {
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
