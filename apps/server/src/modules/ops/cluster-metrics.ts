/**
 * `/metrics` of a WORKERS=N server: one answer for the whole server, not for whichever worker the
 * scrape landed on. The worker that gets the scrape asks the primary; the primary collects every
 * worker's registry through prom-client's AggregatorRegistry (node:cluster IPC) and answers the text:
 * counters and histograms summed, process figures summed (CPU seconds, memory) or averaged (event-loop
 * lag), figures of the shared database taken once (their gauges say `aggregator: 'max'`).
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'inbound:metrics-ask';
const ANSWER = 'inbound:metrics-answer';
/** prom-client gives up on silent workers after 5 s; the asking worker waits a little longer. */
const ANSWER_TIMEOUT_MS = 6_000;

type Ask = { type: typeof ASK; id: number };
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

export const inClusterWorker = (): boolean => cluster.isWorker;

/** In a worker: the registries the primary's collection reads (prom-client's default is its global one). */
export function shareRegistryWithPrimary(registries: Registry[]): void {
  AggregatorRegistry.setRegistries(registries);
  // prom-client answers the primary's requests only once an AggregatorRegistry was made in the worker.
  new AggregatorRegistry();
}

let nextId = 0;
/** In a worker: the whole server's metrics text, from the primary. */
export function scrapeCluster(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      finish();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics from the primary'));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error('the primary did not answer with the workers’ metrics'));
    }, ANSWER_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send?.({ type: ASK, id } satisfies Ask);
  });
}

/** In the primary: answers the workers' requests for the aggregated metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Ask) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (error: Error) =>
        worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: error.message } satisfies Answer),
    );
  });
}
