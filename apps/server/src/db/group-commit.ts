/**
 * Group commit for SQLite. With synchronous=FULL every COMMIT waits for an fsync of the WAL, and
 * better-sqlite3 runs one transaction at a time, so one transaction per request caps writes at the
 * disk's fsync rate. Here the transactions that arrive while one is committing wait, and then run
 * together in one database transaction — each in its own SAVEPOINT, so a failing one is rolled back
 * alone — and all of them are answered after the one COMMIT (one fsync) that makes them durable.
 *
 * Nothing is answered before its commit: a caller's promise resolves only once the group's COMMIT has
 * returned and is on disk; if the COMMIT fails, every caller of the group gets the error. PostgreSQL
 * needs none of this (concurrent commits share WAL flushes on their own), so it is used for SQLite only.
 *
 * Groups are pipelined: the driver hands the writer on when COMMIT returns and syncs the WAL on the
 * thread pool (wal-sync.ts), so the next group starts as soon as this one's work is done and runs
 * while the disk syncs the previous one — the disk's sync time no longer adds to every group's.
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';

export type TransactionRunner<DB> = <T>(work: (trx: Transaction<DB>) => Promise<T>) => Promise<T>;

interface Job<DB> {
  work: (trx: Transaction<DB>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most transactions one COMMIT carries; more wait for the next group. */
export const GROUP_COMMIT_MAX = 128;

// Compiled once: three of them run for every job of every group.
const SAVEPOINT = CompiledQuery.raw('savepoint group_job');
const RELEASE = CompiledQuery.raw('release savepoint group_job');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint group_job');

export function createGroupCommit<DB>(
  db: Kysely<DB>,
  options: { maxGroup?: number; onCommit?: (size: number) => void } = {},
): TransactionRunner<DB> {
  const maxGroup = options.maxGroup ?? GROUP_COMMIT_MAX;
  const waiting: Job<DB>[] = [];
  let committing = false;

  /** `workDone` is called when the group's work is over and only its COMMIT (and sync) remain. */
  async function commitGroup(group: Job<DB>[], workDone: () => void): Promise<void> {
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of group) {
          await trx.executeQuery(SAVEPOINT);
          try {
            const value = await job.work(trx);
            await trx.executeQuery(RELEASE);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await trx.executeQuery(ROLLBACK_TO);
            await trx.executeQuery(RELEASE);
            outcomes.push({ ok: false, value: error });
          }
        }
        workDone();
      });
    } catch (error) {
      for (const job of group) job.reject(error);
      return;
    } finally {
      workDone();
    }
    options.onCommit?.(group.length);
    group.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }

  async function drain(): Promise<void> {
    committing = true;
    try {
      while (waiting.length > 0) {
        let workDone!: () => void;
        const worked = new Promise<void>((resolve) => (workDone = resolve));
        // Not awaited to its end: the next group may begin once this one only waits for its COMMIT.
        void commitGroup(waiting.splice(0, maxGroup), workDone);
        await worked;
      }
    } finally {
      committing = false;
    }
  }

  return <T>(work: (trx: Transaction<DB>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // Started on the next turn, so the requests already in this turn's queue join the same group.
      if (!committing) {
        committing = true;
        setImmediate(() => void drain());
      }
    });
}
