/**
 * SQLite checkpoints in a worker thread (issue 11). By default the connection that commits runs a
 * checkpoint inside the COMMIT that takes the WAL past 1,000 pages: it syncs the WAL, copies the pages
 * into the database file and syncs that — two fsyncs and megabytes of copying on the event loop, every
 * few hundred events under load. Here the writer's automatic checkpoint is off and a worker thread with
 * its own connection runs `wal_checkpoint(PASSIVE)` — which never waits for, nor blocks, the writer or
 * readers — every CHECKPOINT_EVERY commits, and once a second while commits trickle in.
 *
 * If the worker cannot start or dies, the writer's automatic checkpoint is switched back on: the WAL
 * never grows without bound. Durability is not the checkpoint's job (wal-sync.ts syncs every commit).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

export const CHECKPOINT_EVERY = 256;
const IDLE_CHECKPOINT_MS = 1_000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;

// A plain CommonJS script, so the worker needs no TypeScript loader in any way the server is run.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); process.exit(0); }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, result });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export class WalCheckpointer {
  readonly #worker: Worker;
  #sinceLast = 0;
  #running = false;
  #closed = false;
  readonly #timer: NodeJS.Timeout;
  /** Checkpoints done, and the last one's answer (tests, metrics). */
  done = 0;
  last: CheckpointResult | null = null;

  constructor(
    private readonly writer: SQLite.Database,
    file: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file } });
    this.#worker.unref();
    writer.pragma('wal_autocheckpoint = 0');
    this.#worker.on('message', (message: { ok: boolean; result?: CheckpointResult; message?: string }) => {
      this.#running = false;
      if (message.ok) {
        this.done += 1;
        this.last = message.result ?? null;
      } else this.onError(new Error(`SQLite checkpoint failed: ${message.message}`));
    });
    this.#worker.on('error', (error) => this.#fallBack(error));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fallBack(new Error(`SQLite checkpoint worker exited (${code})`));
    });
    this.#timer = setInterval(() => {
      if (this.#sinceLast > 0) this.#checkpoint();
    }, IDLE_CHECKPOINT_MS);
    this.#timer.unref();
  }

  /** A commit was made on the writer. */
  committed(): void {
    this.#sinceLast += 1;
    if (this.#sinceLast >= CHECKPOINT_EVERY) this.#checkpoint();
  }

  /** Runs a checkpoint now (unless one is running) — for tests. */
  checkpointNow(): void {
    this.#checkpoint();
  }

  /** Closes the worker's connection and ends the worker (before the database's files go). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    this.#worker.postMessage('close');
    const timeout = setTimeout(() => void this.#worker.terminate(), 2_000);
    await exited;
    clearTimeout(timeout);
  }

  #checkpoint(): void {
    if (this.#running || this.#closed) return;
    this.#running = true;
    this.#sinceLast = 0;
    this.#worker.postMessage('checkpoint');
  }

  #fallBack(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.onError(error);
    if (this.writer.open) this.writer.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  }
}
