/**
 * A small in-process job queue: at most `concurrency` jobs at once (one per core by default), each
 * id queued once. Nothing is kept in memory that is not also in the database: a job's upload stays
 * `processing` until its job finishes, and at start every such upload is queued again.
 *
 * Fair between groups (issue 17 item 3): each group (an uploader) has its own line, and the next free
 * slot goes to the next group in turn, so one crew's ten videos do not hold back another's one.
 */
export interface JobQueue {
  /** `group`: whose job it is; jobs of one group run in order, groups take turns. */
  enqueue(id: string, group?: string): void;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  whenIdle(): Promise<void>;
  /** Aborts running jobs (their uploads stay `processing` for the next start) and takes no more. */
  close(): Promise<void>;
}

export function createJobQueue(
  concurrency: number,
  work: (id: string, signal: AbortSignal) => Promise<void>,
  onError: (id: string, error: unknown) => void,
): JobQueue {
  // Groups in turn order; each with its jobs in arrival order.
  const waiting = new Map<string, string[]>();
  let waitingCount = 0;
  const known = new Set<string>();
  const next = (): string => {
    const [group, ids] = waiting.entries().next().value as [string, string[]];
    const id = ids.shift() as string;
    waiting.delete(group);
    // To the back of the turn order, if it has more.
    if (ids.length > 0) waiting.set(group, ids);
    waitingCount--;
    return id;
  };
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let idleWaiters: (() => void)[] = [];
  let closed = false;

  const settleIdle = () => {
    if (waitingCount === 0 && running.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const pump = () => {
    while (!closed && running.size < concurrency && waitingCount > 0) {
      const id = next();
      const abort = new AbortController();
      const done = work(id, abort.signal)
        .catch((error: unknown) => {
          if (!abort.signal.aborted) onError(id, error);
        })
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
    enqueue(id, group = id) {
      if (closed || known.has(id)) return;
      known.add(id);
      const line = waiting.get(group);
      if (line) line.push(id);
      else waiting.set(group, [id]);
      waitingCount++;
      pump();
    },
    whenIdle() {
      if (waitingCount === 0 && running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      waiting.clear();
      waitingCount = 0;
      const jobs = [...running.values()];
      for (const job of jobs) job.abort.abort();
      await Promise.all(jobs.map((job) => job.done));
      settleIdle();
    },
  };
}
