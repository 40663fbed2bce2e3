/**
 * A small in-process job queue: at most `concurrency` jobs at once (one per core by default), each
 * id queued once. Nothing is kept in memory that is not also in the database: a job's upload stays
 * `processing` until its job finishes, and at start every such upload is queued again.
 */
export interface JobQueue {
  enqueue(id: string): void;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  whenIdle(): Promise<void>;
  /** Aborts running jobs (their uploads stay `processing` for the next start) and takes no more. */
  close(): Promise<void>;
  /** Jobs waiting and running now (metrics). */
  size(): { waiting: number; running: number };
}

/** Told of every finished job (not of those aborted by `close`): the job-duration metric. */
export type JobObserver = (outcome: 'ok' | 'failed', seconds: number) => void;

export function createJobQueue(
  concurrency: number,
  work: (id: string, signal: AbortSignal) => Promise<void>,
  onError: (id: string, error: unknown) => void,
  onJobDone?: JobObserver,
): JobQueue {
  const waiting: string[] = [];
  const known = new Set<string>();
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let idleWaiters: (() => void)[] = [];
  let closed = false;

  const settleIdle = () => {
    if (waiting.length === 0 && running.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const pump = () => {
    while (!closed && running.size < concurrency && waiting.length > 0) {
      const id = waiting.shift() as string;
      const abort = new AbortController();
      const started = performance.now();
      const done = work(id, abort.signal)
        .then(
          () => onJobDone?.('ok', (performance.now() - started) / 1000),
          (error: unknown) => {
            if (abort.signal.aborted) return;
            onJobDone?.('failed', (performance.now() - started) / 1000);
            onError(id, error);
          },
        )
        .finally(() => {
          running.delete(id);
          known.delete(id);
          pump();
          settleIdle();
        });
      running.set(id, { abort, done });
    }
    settleIdle();
  };

  return {
    enqueue(id) {
      if (closed || known.has(id)) return;
      known.add(id);
      waiting.push(id);
      pump();
    },
    whenIdle() {
      if (waiting.length === 0 && running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    size: () => ({ waiting: waiting.length, running: running.size }),
    async close() {
      closed = true;
      waiting.length = 0;
      const jobs = [...running.values()];
      for (const job of jobs) job.abort.abort();
      await Promise.all(jobs.map((job) => job.done));
      settleIdle();
    },
  };
}
