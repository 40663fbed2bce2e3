/**
 * bench/metrics-overhead.ts's in-process figure: the request path alone, metrics on vs off, in one
 * process (Fastify's inject: no sockets, no other process between the two sides) — CPU µs per
 * `GET /v4/users/me`. The two apps take turns in ROUNDS rounds of 1,000, the one going first alternating
 * (whichever runs second after a GC-heavy turn pays for the other's garbage), and the figure is the median
 * of the rounds' on ÷ off: five rounds, "on" always first, gave +4 %, +5 % and +17 % in three runs on a
 * quiet machine. The process-wide collectors (GC, event loop) run for both sides here; they are the fixed
 * cost the bench measures apart. Prints one JSON line { onUs, offUs, overhead }.
 */
import { authorizationHeader, routes } from '@inbound/contract';
import { createTestApp, type TestApp } from '../../test/app.js';

const ROUNDS = 21;
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
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [first, second] = r % 2 === 0 ? [0, 1] : [1, 0];
    const us = [0, 0];
    us[first!] = await round(sides[first!]!, 1_000);
    us[second!] = await round(sides[second!]!, 1_000);
    onUs.push(us[0]!);
    offUs.push(us[1]!);
    ratios.push(us[0]! / us[1]!);
  }
  console.info(JSON.stringify({ onUs: median(onUs), offUs: median(offUs), overhead: median(ratios) - 1 }));
} finally {
  await on.close();
  await off.close();
}
