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
import { inClusterWorker, scrapeCluster, shareRegistryWithPrimary } from './cluster-metrics.js';
import { createHttpMetrics, UNMATCHED_ROUTE } from './http-metrics.js';

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

const DELIVERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
// ffmpeg on a voice memo takes a second; a long video a minute or more.
const CONVERSION_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

const DEFAULT_LABELS = { service: 'inbound' };

let processRegistry: Registry | null = null;

/**
 * Process CPU seconds, resident memory, heap, GC, event-loop lag, open handles — prom-client's own names —
 * collected once per process, however many apps it builds. prom-client's GC metric observes through a
 * process-wide PerformanceObserver that is never disconnected: made for each app, it kept every app built
 * in the process alive through the collectors of that app's registry (the no-loss test builds ~400 apps:
 * its heap grew ~3 MB an app, to over a gigabyte).
 * The event-loop delay is sampled every 100 ms, not prom-client's 10 ms: a hundred wake-ups a second cost
 * an idle server 3 ms of CPU per second (bench/metrics-overhead.ts); ten samples a second still give a
 * p99 of the lag per minute.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    processRegistry.setDefaultLabels(DEFAULT_LABELS);
    collectDefaultMetrics({ register: processRegistry, prefix: 'inbound_', eventLoopMonitoringPrecision: 100 });
  }
  return processRegistry;
}

export function createMetrics(options: { defaultMetrics?: boolean; database?: DatabaseSources } = {}) {
  const registry = new Registry();
  registry.setDefaultLabels(DEFAULT_LABELS);
  const scraped = options.defaultMetrics === false ? [registry] : [processMetrics(), registry];

  const sources: MetricSources = {};
  const registers = [registry];

  // Requests by route and their latency: plain numbers per route, read when scraped (http-metrics.ts).
  const http = createHttpMetrics(registers);
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
      aggregator: 'max',
      registers,
      collect() {
        const bytes = safely(walBytes);
        if (bytes !== undefined) this.set(bytes);
      },
    });
  }
  // The outbox is the database's: read once per scrape per process, and taken once (max) across workers.
  // Both gauges come from one read, made by whichever is collected first.
  let backlog: Promise<{ pending: number; oldestSeconds: number } | undefined> | null = null;
  const readBacklog = () => {
    backlog ??= (sources.outboxBacklog?.() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => {
        setImmediate(() => (backlog = null));
      });
    return backlog;
  };
  new Gauge({
    name: 'inbound_outbox_pending',
    help: 'Transactional outbox rows not yet handed on',
    aggregator: 'max',
    registers,
    async collect() {
      this.reset();
      const now = await readBacklog();
      if (now) this.set(now.pending);
    },
  });
  new Gauge({
    name: 'inbound_outbox_oldest_seconds',
    help: 'Age of the oldest transactional outbox row not yet handed on',
    aggregator: 'max',
    registers,
    async collect() {
      this.reset();
      const now = await readBacklog();
      if (now) this.set(now.oldestSeconds);
    },
  });
  // With WORKERS=N the primary collects these registries from every worker (cluster-metrics.ts).
  const clustered = inClusterWorker();
  if (clustered) shareRegistryWithPrimary(scraped);

  return {
    sources,

    httpRequest(route: string, method: string, status: number, seconds: number): void {
      http.record(route, method, status, seconds);
    },
    /** The recorder of one route, bound once when the route is added: per request a few additions. */
    httpRoute(route: string, method: string): (status: number, seconds: number) => void {
      return http.recorder(route, method);
    },
    /** Requests no route matched, under one fixed label (never the URL: ids and probes stay out of labels). */
    httpUnmatched(method: string): (status: number, seconds: number) => void {
      return http.recorder(UNMATCHED_ROUTE, method);
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

    /** The exposition text: this process's, or with WORKERS=N the whole server's (summed by the primary). */
    async scrape(): Promise<string> {
      if (clustered) return scrapeCluster();
      const texts = await Promise.all(scraped.map((one) => one.metrics()));
      return texts.map((text) => (text === '' || text.endsWith('\n') ? text : `${text}\n`)).join('');
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
