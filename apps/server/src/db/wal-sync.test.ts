/**
 * The WAL's fsync off the event loop (wal-sync.ts): nobody is answered before a sync that started
 * after their commit has finished — a committing transaction, a write outside one, a read whose
 * snapshot holds the commit, a rollback that may have read it — and the writer is free meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadWriteSqliteDialect } from './sqlite-driver.js';
import { CHECKPOINT_EVERY, WalCheckpointer } from './wal-checkpointer.js';
import { WalSync } from './wal-sync.js';

type Items = { items: { id: number; v: string } };

/** A sync that finishes only when the test says so. */
function gatedSync() {
  const pending: ((error: Error | null) => void)[] = [];
  return {
    sync: (_fd: number, done: (error: Error | null) => void) => void pending.push(done),
    get pending() {
      return pending.length;
    },
    finish(error: Error | null = null) {
      const done = pending.shift();
      if (!done) throw new Error('no sync is running');
      done(error);
    },
  };
}

/** Whether a promise has settled after the current turn's microtasks and a macrotask. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('WAL sync off the event loop', () => {
  const dirs: string[] = [];
  const dbs: Kysely<Items>[] = [];
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.destroy();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function setUp() {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-walsync-'));
    dirs.push(dir);
    const file = path.join(dir, 'test.db');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    writer.exec('create table items (id integer primary key, v text not null)');
    const gate = gatedSync();
    const walSync = new WalSync(`${file}-wal`, gate.sync);
    const db = new Kysely<Items>({ dialect: new ReadWriteSqliteDialect(writer, new SQLite(file), walSync) });
    dbs.push(db);
    return { db, gate, walSync, file };
  }

  it('answers a commit only after a sync that started after it, and hands the writer on meanwhile', async () => {
    const { db, gate, file } = await setUp();
    const first = db.transaction().execute((trx) => trx.insertInto('items').values({ id: 1, v: 'a' }).execute());
    expect(await settled(first)).toBe(false);
    expect(gate.pending).toBe(1);
    // The writer is free while the disk syncs: a second transaction runs and commits now…
    const second = db.transaction().execute((trx) => trx.insertInto('items').values({ id: 2, v: 'b' }).execute());
    await new Promise((resolve) => setImmediate(resolve));
    // …and is on the file (another connection sees it), yet answered only after its own sync.
    const other = new SQLite(file, { readonly: true });
    expect(other.prepare('select count(*) as n from items').get()).toEqual({ n: 2 });
    other.close();
    gate.finish(); // the sync that started before the second commit
    await first;
    expect(await settled(second)).toBe(false);
    expect(gate.pending).toBe(1); // the next sync started at once, for the second commit
    gate.finish();
    await second;
  });

  it('coalesces: the commits made while one sync runs share the next', async () => {
    const { db, gate, walSync } = await setUp();
    const writes = [db.insertInto('items').values({ id: 1, v: 'a' }).execute()];
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 2; i <= 20; i++) writes.push(db.insertInto('items').values({ id: i, v: 'x' }).execute());
    await new Promise((resolve) => setImmediate(resolve));
    gate.finish();
    gate.finish();
    await Promise.all(writes);
    expect(walSync.syncs).toBe(2);
    expect(gate.pending).toBe(0);
  });

  it('answers a read that sees a commit not yet on disk only once it is', async () => {
    const { db, gate } = await setUp();
    const write = db.insertInto('items').values({ id: 1, v: 'a' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    const read = db.selectFrom('items').selectAll().execute();
    expect(await settled(read)).toBe(false);
    gate.finish();
    expect(await read).toEqual([{ id: 1, v: 'a' }]);
    await write;
    // Nothing pending: a read answers at once, without a sync.
    expect(await settled(db.selectFrom('items').selectAll().execute())).toBe(true);
    expect(gate.pending).toBe(0);
  });

  it('makes a rollback wait for what its transaction may have read', async () => {
    const { db, gate } = await setUp();
    const write = db.insertInto('items').values({ id: 1, v: 'a' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    const failed = db.transaction().execute(async (trx) => {
      await trx.selectFrom('items').selectAll().execute();
      throw new Error('refused after reading');
    });
    expect(await settled(failed)).toBe(false);
    gate.finish();
    await expect(failed).rejects.toThrow('refused after reading');
    await write;
  });

  it('fails every waiter, present and later, when a sync fails', async () => {
    const { db, gate } = await setUp();
    const write = db.insertInto('items').values({ id: 1, v: 'a' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    gate.finish(new Error('EIO'));
    await expect(write).rejects.toThrow(/could not be synced to disk: EIO/);
    await expect(db.insertInto('items').values({ id: 2, v: 'b' }).execute()).rejects.toThrow(/could not be synced/);
  });

  it('syncs the real WAL file with fdatasync', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-walsync-'));
    dirs.push(dir);
    const file = path.join(dir, 'real.db');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table items (id integer primary key, v text not null)');
    const walSync = new WalSync(`${file}-wal`);
    const db = new Kysely<Items>({ dialect: new ReadWriteSqliteDialect(writer, new SQLite(file), walSync) });
    dbs.push(db);
    await Promise.all(Array.from({ length: 10 }, (_, i) => db.insertInto('items').values({ id: i, v: 'x' }).execute()));
    expect(walSync.syncs).toBeGreaterThanOrEqual(1);
    expect(walSync.syncs).toBeLessThanOrEqual(10);
  });
});

describe('checkpoints in a worker thread', () => {
  it('turns the writer’s own checkpoint off and copies the WAL into the database from the worker', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-checkpoint-'));
    const file = path.join(dir, 'c.db');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    writer.exec('create table items (id integer primary key, v text not null)');
    const checkpointer = new WalCheckpointer(writer, file);
    try {
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const insert = writer.prepare('insert into items (v) values (?)');
      for (let i = 0; i < CHECKPOINT_EVERY; i++) {
        insert.run('x'.repeat(500));
        checkpointer.committed();
      }
      // The CHECKPOINT_EVERY-th commit asked the worker for one; it answers on its own thread.
      const deadline = Date.now() + 10_000;
      while (checkpointer.done === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(checkpointer.done).toBe(1);
      expect(checkpointer.last?.checkpointed).toBeGreaterThan(0);
      expect(checkpointer.last?.checkpointed).toBe(checkpointer.last?.log);
      // Every frame of the WAL was copied (checkpointed == log), and nothing was lost on the way.
      expect(writer.prepare('select count(*) as n from items').get()).toEqual({ n: CHECKPOINT_EVERY });
    } finally {
      await checkpointer.close();
      writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
