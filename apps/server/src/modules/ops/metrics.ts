/**
 * The Prometheus metrics of one server process (prom-client). Counters and histograms are fed by the
 * code that sees the event (a request completing, a message delivered, a conversion finishing, a push
 * sent); gauges are read when scraped, from small `sources` the composition root hands over — so the
 * modules measured never import this file, and a source that is missing (an outbox not built yet, a
 * SQLite-only figure on PostgreSQL) simply reports nothing.
 *
 * Every name is listed in docs/operations.md and drawn by docs/grafana-dashboard.json: renaming one is a
 * breaking change for the hospital's monitoring.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The database's own figures; a gauge exists only for the dialect that has it. */
export interface DatabaseSources {
  /** PostgreSQL pool: connections in use, idle, and requests waiting for one. */
  pool?(): { inUse: number; idle: number; waiting: number };
  /** SQLite: bytes of the write-ahead log (grows until a checkpoint). */
  walBytes?(): number;
}

/** Read at scrape time; each may be absent. Errors are counted as "no value", never thrown at the scraper. */
export interface MetricSources {
  /** Open sockets, and channel subscriptions by channel kind (case, user, hospital, …). */
  realtime?(): { sockets: number; subscriptionsByKind: Record<string, number> };
  /** Media conversions waiting and running. */
  conversionQueue?(): { waiting: number; running: number };
  /** The transactional outbox's rows not yet handed on, and the age of the oldest in seconds. */
  outboxBacklog?(): Promise<{ pending: number; oldestSeconds: number }>;
}

export type PushOutcome = 'sent' | 'gone' | 'refused' | 'error';
export type FieldErrorKind = 'uncaught' | 'sw_update_failed' | 'outbox_refused';

// Request latencies of a JSON API on one machine: most under 10 ms, a slow PostgreSQL write near 100 ms.
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DELIVERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
// ffmpeg on a voice memo takes a second; a long video a minute or more.
const CONVERSION_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

export function createMetrics(options: { defaultMetrics?: boolean; database?: DatabaseSources } = {}) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'inbound' });
  // Process CPU seconds, resident memory, heap, event-loop lag, open handles — prom-client's own names.
  // The event-loop delay is sampled every 100 ms, not prom-client's 10 ms: a hundred wake-ups a second cost
  // an idle server 3 ms of CPU per second (bench/metrics-overhead.ts); ten samples a second still give a
  // p99 of the lag per minute.
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry, prefix: 'inbound_', eventLoopMonitoringPrecision: 100 });
  }

  const sources: MetricSources = {};
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'inbound_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'inbound_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const delivery = new Histogram({
    name: 'inbound_realtime_delivery_seconds',
    help: 'Real-time publish → frame written to the subscribed sockets (local: same process, including the durable append; broker: from another process)',
    labelNames: ['via'] as const,
    buckets: DELIVERY_BUCKETS,
    registers,
  });
  const conversions = new Histogram({
    name: 'inbound_media_conversion_seconds',
    help: 'Duration of media conversion jobs, by outcome',
    labelNames: ['outcome'] as const,
    buckets: CONVERSION_BUCKETS,
    registers,
  });
  const pushSends = new Counter({
    name: 'inbound_push_sends_total',
    help: 'Web Push requests to browser push services, by outcome (sent, gone = subscription removed, refused = 4xx/5xx, error = no answer)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const fieldErrors = new Counter({
    name: 'inbound_field_errors_total',
    help: 'Error reports from the crew app and the hospital console, by app and kind',
    labelNames: ['app', 'kind'] as const,
    registers,
  });
  const fieldErrorsDropped = new Counter({
    name: 'inbound_field_errors_dropped_total',
    help: 'Error reports refused by the per-device rate limit',
    registers,
  });

  // Gauges read their source when scraped; a throwing source leaves the gauge empty.
  const safely = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  new Gauge({
    name: 'inbound_realtime_sockets',
    help: 'Open real-time WebSockets on this process',
    registers,
    collect() {
      this.reset();
      const stats = sources.realtime && safely(sources.realtime);
      if (stats) this.set(stats.sockets);
    },
  });
  new Gauge({
    name: 'inbound_realtime_subscriptions',
    help: 'Real-time channel subscriptions on this process, by channel kind',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      const stats = sources.realtime && safely(sources.realtime);
      for (const [kind, count] of Object.entries(stats?.subscriptionsByKind ?? {})) this.set({ kind }, count);
    },
  });
  new Gauge({
    name: 'inbound_media_conversion_queue',
    help: 'Media conversion jobs on this process, by state (waiting, running)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.reset();
      const queue = sources.conversionQueue && safely(sources.conversionQueue);
      if (!queue) return;
      this.set({ state: 'waiting' }, queue.waiting);
      this.set({ state: 'running' }, queue.running);
    },
  });
  const { pool, walBytes } = options.database ?? {};
  if (pool) {
    new Gauge({
      name: 'inbound_db_pool_connections',
      help: 'PostgreSQL pool connections of this process, by state (in_use, idle, waiting = requests queued for one)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.reset();
        const now = safely(pool);
        if (!now) return;
        this.set({ state: 'in_use' }, now.inUse);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
  }
  if (walBytes) {
    new Gauge({
      name: 'inbound_sqlite_wal_bytes',
      help: 'Size of the SQLite write-ahead log file',
      registers,
      collect() {
        const bytes = safely(walBytes);
        if (bytes !== undefined) this.set(bytes);
      },
    });
  }
  const outboxPending = new Gauge({
    name: 'inbound_outbox_pending',
    help: 'Transactional outbox rows not yet handed on',
    registers,
  });
  const outboxOldest = new Gauge({
    name: 'inbound_outbox_oldest_seconds',
    help: 'Age of the oldest transactional outbox row not yet handed on',
    registers,
  });

  return {
    registry,
    sources,

    httpRequest(route: string, method: string, status: number, seconds: number): void {
      httpRequests.inc({ route, method, status: String(status) });
      httpDuration.observe({ route, method }, seconds);
    },
    /**
     * The recorder of one route, its labelled series bound once: the per-request work is then a lookup by
     * status and two additions (prom-client hashes the labels on every unbound call).
     */
    httpRoute(route: string, method: string): (status: number, seconds: number) => void {
      const duration = httpDuration.labels({ route, method });
      const byStatus = new Map<number, ReturnType<typeof httpRequests.labels>>();
      return (status, seconds) => {
        let counter = byStatus.get(status);
        if (!counter) {
          counter = httpRequests.labels({ route, method, status: String(status) });
          byStatus.set(status, counter);
        }
        counter.inc();
        duration.observe(seconds);
      };
    },
    realtimeDelivered(via: 'local' | 'broker', seconds: number): void {
      delivery.observe({ via }, seconds);
    },
    conversionDone(outcome: 'ok' | 'failed', seconds: number): void {
      conversions.observe({ outcome }, seconds);
    },
    pushSent(outcome: PushOutcome): void {
      pushSends.inc({ outcome });
    },
    fieldError(app: string, kind: FieldErrorKind): void {
      fieldErrors.inc({ app, kind });
    },
    fieldErrorDropped(): void {
      fieldErrorsDropped.inc();
    },

    /** The exposition text; the outbox backlog (a database read) is taken here, once per scrape. */
    async scrape(): Promise<string> {
      outboxPending.reset();
      outboxOldest.reset();
      if (sources.outboxBacklog) {
        const backlog = await sources.outboxBacklog().catch(() => undefined);
        if (backlog) {
          outboxPending.set(backlog.pending);
          outboxOldest.set(backlog.oldestSeconds);
        }
      }
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
