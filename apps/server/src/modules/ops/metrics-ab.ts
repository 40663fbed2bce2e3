/**
 * bench/metrics-overhead.ts's in-process figure: the request path alone, metrics on vs off, in one
 * process (Fastify's inject: no sockets, no other process between the two sides) — CPU µs per
 * `GET /v4/users/me`, the two apps taking turns, median of five rounds of 3,000. The process-wide
 * collectors (GC, event loop) run for both sides here; they are the fixed cost the bench measures
 * apart. Prints one JSON line { onUs, offUs }.
 */
import { authorizationHeader, routes } from '@inbound/contract';
import { createTestApp, type TestApp } from '../../test/app.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const on = await createTestApp({ env: { METRICS_ENABLED: 'true' } });
const off = await createTestApp({ env: { METRICS_ENABLED: 'false' } });
try {
  const sides = await Promise.all(
    [on, off].map(async (t) => ({ t, headers: { authorization: authorizationHeader(await t.signIn('medic1')) } })),
  );
  const round = async ({ t, headers }: { t: TestApp; headers: Record<string, string> }, n: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const res = await t.app.inject({ method: 'GET', url: routes.me.path, headers });
      if (res.statusCode !== 200) throw new Error(`users/me: ${res.statusCode}`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  };
  for (const side of sides) await round(side, 2_000); // warm-up
  const onUs: number[] = [];
  const offUs: number[] = [];
  for (let r = 0; r < 5; r++) {
    onUs.push(await round(sides[0]!, 3_000));
    offUs.push(await round(sides[1]!, 3_000));
  }
  console.info(JSON.stringify({ onUs: median(onUs), offUs: median(offUs) }));
} finally {
  await on.close();
  await off.close();
}
