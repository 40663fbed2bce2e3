/**
 * A repository built once by the composition root, with the same queries on a transaction: the admin
 * catalogue services read through `read` and write through `transaction`, where the change and its
 * audit entry commit together. The service never builds a repository itself.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

export interface Transactional<R> {
  /** The repository on the database (reads outside a change). */
  read: R;
  /** Runs `work` in one transaction, with the repository on it and the transaction (for the audit entry). */
  transaction<T>(work: (repo: R, trx: Transaction<DB>) => Promise<T>): Promise<T>;
}

export function transactional<R>(db: Kysely<DB>, create: (executor: Kysely<DB>) => R): Transactional<R> {
  return {
    read: create(db),
    transaction: (work) => db.transaction().execute((trx) => work(create(trx), trx)),
  };
}
