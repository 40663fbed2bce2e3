/**
 * The per-request metrics (requests by route, method and status; latency histogram by route and method)
 * kept as plain numbers per route and handed to prom-client only when scraped. prom-client's own
 * Counter/Histogram, even with bound labels, build a label object, validate it and hash it into a
 * string on every call; here a request costs a Map lookup by status, a bucket search over ten bounds and
 * a few additions. The exposition — names, labels, buckets — is what prom-client would write, and the
 * `get()` shape is prom-client's, so the cluster aggregator (cluster-metrics.ts) sums it across workers.
 */
import type { Registry } from 'prom-client';

/** Latency bounds, seconds: ten buckets (+Inf) cover a 2 ms cache hit to a 10 s upload answer. */
export const HTTP_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 10] as const;

/** The route label of requests that matched no route (404s, and the apps' pages served for any path). */
export const UNMATCHED_ROUTE = '(unmatched)';

interface RouteSeries {
  route: string;
  method: string;
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative); the last is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

export function createHttpMetrics(registers: Registry[]) {
  const series: RouteSeries[] = [];
  const byKey = new Map<string, (status: number, seconds: number) => void>();

  function recorder(route: string, method: string): (status: number, seconds: number) => void {
    const entry: RouteSeries = {
      route,
      method,
      byStatus: new Map(),
      buckets: new Float64Array(HTTP_BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    series.push(entry);
    return (status, seconds) => {
      entry.byStatus.set(status, (entry.byStatus.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < HTTP_BUCKETS.length && seconds > HTTP_BUCKETS[bucket]!) bucket++;
      entry.buckets[bucket]! += 1;
      entry.sum += seconds;
      entry.count += 1;
    };
  }

  const requests = {
    name: 'inbound_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    type: 'counter',
    aggregator: 'sum',
    get() {
      const values: Sample[] = [];
      for (const entry of series) {
        for (const [status, count] of entry.byStatus) {
          values.push({ labels: { route: entry.route, method: entry.method, status: String(status) }, value: count });
        }
      }
      return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
  };
  const duration = {
    name: 'inbound_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern and method',
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: Sample[] = [];
      for (const entry of series) {
        if (entry.count === 0) continue;
        const labels = { route: entry.route, method: entry.method };
        let cumulative = 0;
        HTTP_BUCKETS.forEach((bound, index) => {
          cumulative += entry.buckets[index]!;
          values.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...labels }, value: entry.count, metricName: `${this.name}_bucket` });
        values.push({ labels, value: entry.sum, metricName: `${this.name}_sum` });
        values.push({ labels, value: entry.count, metricName: `${this.name}_count` });
      }
      return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
  };
  for (const registry of registers) {
    // prom-client's registry takes any object with name and get(); its own metrics are such objects.
    registry.registerMetric(requests as unknown as Parameters<Registry['registerMetric']>[0]);
    registry.registerMetric(duration as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  return {
    /** The recorder of one route: bound once when the route is added. */
    recorder,
    /** One request of a route not bound beforehand (tests, the bench's in-process figure). */
    record(route: string, method: string, status: number, seconds: number): void {
      const key = `${method} ${route}`;
      let record = byKey.get(key);
      if (!record) {
        record = recorder(route, method);
        byKey.set(key, record);
      }
      record(status, seconds);
    },
  };
}
