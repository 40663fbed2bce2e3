/**
 * Load the way users bring it: a fixed offered rate, independent of how fast the server answers. Arrivals
 * are Poisson (exponential gaps); each send gets the time it was due, so a server that falls behind is
 * charged for the queue it causes (no coordinated omission: latency = answer − due time).
 */
export async function poissonArrivals(
  rate: number,
  durationS: number,
  send: (due: number) => Promise<void>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const end = start + durationS * 1000;
  let next = start;
  while (next < end) {
    const now = performance.now();
    if (next > now) await new Promise((resolve) => setTimeout(resolve, next - now));
    // Every arrival due by now goes out, stamped with its own due time.
    while (next <= performance.now() && next < end) {
      const done = send(next);
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      next += (-Math.log(1 - Math.random()) / rate) * 1000;
    }
  }
  await Promise.all([...inFlight]);
}

/** The value at fraction `p` (0–1) of an ascending list; 0 for an empty one. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** The run whose `by` is the middle one (of three: the median run, all its figures together). */
export const medianRun = <T>(runs: readonly T[], by: (run: T) => number): T =>
  [...runs].sort((a, b) => by(a) - by(b))[Math.floor(runs.length / 2)]!;
