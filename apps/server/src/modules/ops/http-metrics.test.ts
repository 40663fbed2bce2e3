// The per-request metrics write exactly what prom-client's own Counter and Histogram would write for the
// same requests (the dashboard and the cluster aggregator read that format), and sum across workers.
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createHttpMetrics, HTTP_BUCKETS } from './http-metrics.js';

const REQUESTS: [string, string, number, number][] = [
  ['/v4/users/me', 'GET', 200, 0.0012],
  ['/v4/users/me', 'GET', 200, 0.004],
  ['/v4/users/me', 'GET', 304, 0.0025],
  ['/v4/twiageCases/:id', 'PATCH', 409, 0.3],
  ['/v4/twiageCases/:id', 'PATCH', 200, 12],
];

function ours(): Registry {
  const registry = new Registry();
  const http = createHttpMetrics([registry]);
  const bound = http.recorder('/v4/users/me', 'GET');
  for (const [route, method, status, seconds] of REQUESTS) {
    if (route === '/v4/users/me') bound(status, seconds);
    else http.record(route, method, status, seconds);
  }
  return registry;
}

describe('createHttpMetrics', () => {
  it("writes prom-client's exposition for the same requests", async () => {
    const reference = new Registry();
    const counter = new Counter({
      name: 'inbound_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code',
      labelNames: ['route', 'method', 'status'],
      registers: [reference],
    });
    const histogram = new Histogram({
      name: 'inbound_http_request_duration_seconds',
      help: 'Time from request received to response sent, by route pattern and method',
      labelNames: ['route', 'method'],
      buckets: [...HTTP_BUCKETS],
      registers: [reference],
    });
    for (const [route, method, status, seconds] of REQUESTS) {
      counter.inc({ route, method, status: String(status) });
      histogram.observe({ route, method }, seconds);
    }
    expect(await ours().metrics()).toBe(await reference.metrics());
  });

  it('sums across workers as the cluster aggregator does', async () => {
    const one = await ours().getMetricsAsJSON();
    const two = await ours().getMetricsAsJSON();
    const text = await AggregatorRegistry.aggregate([one, two]).metrics();
    expect(text).toContain('inbound_http_requests_total{route="/v4/users/me",method="GET",status="200"} 4');
    expect(text).toContain('inbound_http_request_duration_seconds_count{route="/v4/twiageCases/:id",method="PATCH"} 4');
    expect(text).toContain(
      'inbound_http_request_duration_seconds_bucket{le="+Inf",route="/v4/twiageCases/:id",method="PATCH"} 4',
    );
  });
});
