/**
 * A/B of server CPU per read: two copies of the server side by side under the same load at the same
 * time, so both see the same busy machine and their CPU per request can be compared even when the
 * absolute figures are inflated by other work.
 *
 *   BENCH_B_ENTRY=/path/to/other/apps/server/src/main.ts npx tsx bench/api-ab.ts
 *
 * A is this checkout's server (apps/server/src/main.ts, or BENCH_A_ENTRY), B the one at BENCH_B_ENTRY (e.g.
 * a copy of the code before a change, with node_modules and packages/ linked from here). Run it both
 * ways round (A/B, then B/A) and once with the same code on both sides: the server started first tends
 * to come out a little ahead, by up to ~1.1–1.3× on a busy machine. Each call runs
 * `BENCH_ROUNDS` (3) rounds of `BENCH_DURATION_S` (5) s; in each round autocannon loads both servers at
 * once, half the connections each. Prints CPU µs per answered request for A and B per round and the
 * median ratio B ÷ A. Never asserts.
 */
import autocannon from 'autocannon';
import { authorizationHeader, buildPath, routes, type SignInResponse, type Team } from '@inbound/contract';
import { pad, padStart } from './lib/format';
import { coresUsed, freePort, startServer, type BenchServer } from './lib/server';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY_CALLS = process.env.BENCH_CALLS?.split(',').map((name) => name.trim());
const A_ENTRY = process.env.BENCH_A_ENTRY ?? 'apps/server/src/main.ts';
const B_ENTRY = process.env.BENCH_B_ENTRY;
const LIMITS = { SIGNIN_LIMIT_PER_ADDRESS: '100000000', SIGNIN_LIMIT_PER_ACCOUNT: '100000000' };

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}${routes.signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'medic1', password: 'demo-medic1', twiageClient: 'ems', platform: 'web' }),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status}`);
  return ((await response.json()) as SignInResponse).authorizationToken.token;
}

async function load(url: string, path: string, tokens: string[], connections: number, durationS: number) {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: durationS,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { authorization: authorizationHeader(tokens[next++ % tokens.length]!) },
        }),
      },
    ],
  });
  return { answered: result.requests.total - result.non2xx, non2xx: result.non2xx };
}

if (!B_ENTRY) throw new Error('BENCH_B_ENTRY: the main.ts of the server copy to compare with');
const servers: [string, BenchServer][] = [];
try {
  process.env.BENCH_SERVER_ENTRY = A_ENTRY;
  servers.push(['A', await startServer(await freePort(), LIMITS)]);
  process.env.BENCH_SERVER_ENTRY = B_ENTRY;
  servers.push(['B', await startServer(await freePort(), LIMITS)]);
  delete process.env.BENCH_SERVER_ENTRY;
  const tokens = new Map<string, string[]>();
  for (const [name, server] of servers) {
    const list: string[] = [];
    for (let i = 0; i < CONNECTIONS / 2; i++) list.push(await signIn(server.url));
    tokens.set(name, list);
  }
  const probe = await fetch(`${servers[0]![1].url}${buildPath(routes.team.path, { id: 'agency-riverside-ems' })}`, {
    headers: { authorization: authorizationHeader(tokens.get('A')![0]!) },
  });
  const team = (await probe.json()) as Team;
  const calls = [
    { name: 'users/me', path: routes.me.path },
    { name: 'team', path: `${buildPath(routes.team.path, { id: team.id })}?fields=dynamicForms` },
    { name: 'trucks', path: buildPath(routes.trucks.path, { id: team.id }) },
    {
      name: 'complaint set',
      path: `${routes.complaintSets.path}?${new URLSearchParams({ name: team.complaintSet, firstOccurrenceOnly: 'true' }).toString()}`,
    },
  ].filter((call) => !ONLY_CALLS || ONLY_CALLS.includes(call.name));

  console.info(
    `\n== A/B: CPU µs per answered request, both servers loaded at once (${CONNECTIONS / 2} connections each)`,
  );
  console.info(`  A ${A_ENTRY}\n  B ${B_ENTRY}`);
  for (const call of calls) {
    const run = (durationS: number) =>
      Promise.all(
        servers.map(async ([name, server]) => {
          const cores = coresUsed(server.cpuSeconds);
          const result = await load(server.url, call.path, tokens.get(name)!, CONNECTIONS / 2, durationS);
          const seconds = cores() * durationS;
          return { name, us: result.answered > 0 ? (seconds * 1e6) / result.answered : NaN, ...result };
        }),
      );
    await run(2); // warm-up
    const ratios: number[] = [];
    const lines: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await run(DURATION_S);
      ratios.push(b!.us / a!.us);
      lines.push(`A ${a!.us.toFixed(0)} µs / B ${b!.us.toFixed(0)} µs`);
    }
    ratios.sort((x, y) => x - y);
    console.info(
      `  ${pad(call.name, 14)} ${lines.join('   ')}   B ÷ A median ${padStart(ratios[Math.floor(ratios.length / 2)]!.toFixed(2), 5)}`,
    );
  }
} finally {
  for (const [, server] of servers) await server.stop();
}
