/**
 * The SQLite writer's fsync, off the event loop (issue 11, decision 0020-write-path-cpu-and-fsync).
 *
 * With `synchronous=FULL` SQLite fsyncs the WAL inside COMMIT, and better-sqlite3 runs COMMIT on the
 * event loop: every request, read or write, waited while the disk synced. Here the writer runs with
 * `synchronous=NORMAL` — a COMMIT only writes the WAL frames to the OS (tens of µs) — and this module
 * makes them durable with `fdatasync` of the WAL file on libuv's thread pool. Nobody is answered before
 * that: every commit takes a number (`committed()`), and whoever depends on it waits (`waitFor`) until a
 * sync that *started after* that commit has finished. One sync covers every commit made before it
 * started (the WAL is one file, appended in order), so syncs coalesce: while one runs, the commits that
 * arrive wait for the next one, which starts when it ends. NORMAL keeps the database consistent on a
 * crash (SQLite syncs the WAL before each checkpoint and the database file after); the explicit sync
 * adds the durability FULL gave — same guarantee, without holding the loop.
 *
 * A failed fsync leaves the kernel's view of the file unknown (the page cache may have dropped the
 * dirty pages), so it is final: every present and later wait rejects, and the process must restart.
 */
import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import path from 'node:path';

export class WalSync {
  /** Number of the last commit made (on the writer connection, on this thread). */
  #committed = 0;
  /** Every commit up to this number is on disk. */
  #durable = 0;
  #syncing = false;
  #failed: Error | null = null;
  #fd: number | null = null;
  /** Waiters by the commit number they need, in increasing order (numbers only grow). */
  readonly #waiting: { target: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Syncs done (tests, metrics). */
  syncs = 0;

  constructor(
    readonly walFile: string,
    private readonly syncFile: (fd: number, done: (error: Error | null) => void) => void = fdatasync,
  ) {}

  /** Told of every commit (the checkpointer counts them: wal-checkpointer.ts). */
  afterCommit: (() => void) | null = null;

  /** A commit just returned on the writer: its number, to wait for. */
  committed(): number {
    this.afterCommit?.();
    return ++this.#committed;
  }

  /** The number of the last commit (a read's snapshot holds no commit after it). */
  get lastCommitted(): number {
    return this.#committed;
  }

  /** Whether commit `target` is known to be on disk (no wait needed). */
  isDurable(target: number): boolean {
    return this.#durable >= target && this.#failed === null;
  }

  /** Resolves once every commit up to `target` is on disk. */
  waitFor(target: number): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#durable >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiting.push({ target, resolve, reject });
      if (!this.#syncing) this.#start();
    });
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  #start(): void {
    this.#syncing = true;
    const covers = this.#committed;
    let fd: number;
    try {
      fd = this.#open();
    } catch (error) {
      this.#fail(error as Error);
      return;
    }
    this.syncFile(fd, (error) => {
      this.#syncing = false;
      if (error) {
        this.#fail(error);
        return;
      }
      this.syncs += 1;
      this.#durable = Math.max(this.#durable, covers);
      let done = 0;
      while (done < this.#waiting.length && this.#waiting[done]!.target <= this.#durable) done++;
      for (const waiter of this.#waiting.splice(0, done)) waiter.resolve();
      // Commits made while this sync ran need the next one.
      if (this.#waiting.length > 0) this.#start();
    });
  }

  /**
   * The WAL file, opened once it exists (SQLite creates it with the first write). While the database
   * is open SQLite keeps this file (it restarts it from the front after a checkpoint, never deletes
   * it), so the descriptor stays valid. Its directory entry is synced once, since with NORMAL SQLite
   * would only sync it at the first checkpoint.
   */
  #open(): number {
    if (this.#fd !== null) return this.#fd;
    this.#fd = openSync(this.walFile, 'r');
    const directory = openSync(path.dirname(this.walFile), 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
    return this.#fd;
  }

  #fail(error: Error): void {
    this.#failed = new Error(`SQLite WAL could not be synced to disk: ${error.message}`, { cause: error });
    for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#failed);
  }
}
