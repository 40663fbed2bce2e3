/**
 * Team activation → member's push sent (issue 15, "Figures": p95 ≤ 1 s).
 *
 * The real app in this process (`buildApp`, migrations, demo seed, SQLite in a temp DATA_DIR) with
 * a Web Push transport that stamps the moment each push request leaves for the push service — what
 * "sent" means for us (the push service's own delivery is outside the server). A Stroke team of two
 * ED staff members, each with a push subscription. Open loop: activations arrive at ACTIVATIONS_PER_S
 * as a Poisson process, each on a case of its own (started and sent to Riverside beforehand, outside
 * the timing), whatever the previous ones are doing; latency = activation request sent → that
 * activation's push to a member sent, over every member of every activation. CPU per activation is
 * this process's CPU time over the measured window (server and load generator share the process; the
 * generator only injects). Median of three runs.
 *
 *   npx tsx bench/team-activation.ts [activations per run, default 200] [per second, default 20]
 */
import { createDecipheriv, createECDH, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { authorizationHeader, buildPath, routes } from '@inbound/contract';
import type { Kysely } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { verdict } from './lib/format';

/*
 * The server is loaded at run time (tsx compiles it) rather than imported: this package's `undici`
 * types replace the global fetch's, which the server's own code does not type-check against. The few
 * shapes the bench uses are written out here.
 */
const SERVER = '../apps/server/src/';
interface BenchTables {
  users: {
    id: string;
    username: string;
    username_key: string;
    email: string | null;
    email_key: string | null;
    display_name: string;
    password_hash: string;
    disabled: number;
    features: string;
    roles: string;
    created_at: string;
    updated_at: string;
  };
  hospital_staff: { hospital_id: string; user_id: string };
  hospital_teams: {
    id: string;
    hospital_id: string;
    kind: string;
    name: string;
    created_at: string;
    updated_at: string;
  };
  hospital_team_members: { team_id: string; user_id: string; backup: number; position: number };
}
interface BenchDatabase {
  db: Kysely<BenchTables>;
  close(): Promise<void>;
}
interface BenchApp {
  inject(request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: object;
  }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}
interface ServerModules {
  buildApp(
    config: unknown,
    options: {
      database: BenchDatabase;
      push: {
        allowAnyEndpoint: boolean;
        transport: (request: { endpoint: string; body: Buffer | null }) => Promise<{ status: number }>;
      };
    },
  ): Promise<BenchApp>;
  parseConfig(
    env: Record<string, string>,
  ): { ok: true; config: Record<string, unknown> } | { ok: false; problems: string[] };
  createDatabase(config: unknown): BenchDatabase;
  migrateToLatest(db: unknown): Promise<string[]>;
  hashPassword(password: string): Promise<string>;
  seedDemoData(
    db: unknown,
    options: { clock: { now(): Date }; hashPassword(password: string): Promise<string> },
  ): Promise<void>;
}

async function serverModules(): Promise<ServerModules> {
  const load = (file: string) => import(`${SERVER}${file}`) as Promise<Record<string, unknown>>;
  const [app, config, database, migrate, passwords, seed] = await Promise.all([
    load('app.ts'),
    load('config.ts'),
    load('db/database.ts'),
    load('db/migrate.ts'),
    load('modules/auth/passwords.ts'),
    load('seed/seed.ts'),
  ]);
  return { ...app, ...config, ...database, ...migrate, ...passwords, ...seed } as unknown as ServerModules;
}

const TARGET_P95_MS = 1_000;
const RIVERSIDE = 'hospital-riverside-regional';
const MEMBERS = ['bench-neuro', 'bench-radio'] as const;

/** A browser's push keys, so the bench can read each push (RFC 8291) and tell which activation it was. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth };
}
type BrowserKeys = ReturnType<typeof browserKeys>;

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const h = createHmac('sha256', key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** RFC 8291 + RFC 8188 (aes128gcm, one record), as a browser decrypts a push. */
function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublic]);
  const ikm = hmac(hmac(keys.auth, keys.ecdh.computeSecret(serverPublic)), keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  return padded.subarray(0, end).toString('utf8');
}

export interface ActivationRun {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  cpuUsPerActivation: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function oneRun(count: number, perSecond: number): Promise<ActivationRun> {
  const { buildApp, parseConfig, createDatabase, migrateToLatest, hashPassword, seedDemoData } = await serverModules();
  const systemClock = { now: () => new Date() };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-activation-'));
  const parsed = parseConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-long-enough-for-hs256-signing',
    LOG_LEVEL: 'silent',
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const config = { ...parsed.config, jwtSecret: 'bench-secret-long-enough-for-hs256-signing' };
  const database = createDatabase(config);
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { clock: systemClock, hashPassword });
  // Each push as it leaves: who it is for, its encrypted body, when. Read after the run, off the clock.
  const sent: { member: string; body: Buffer; at: number }[] = [];
  const keys = new Map<string, BrowserKeys>(MEMBERS.map((m) => [m, browserKeys()]));
  const app = await buildApp(config, {
    database,
    push: {
      allowAnyEndpoint: true,
      transport: (request) => {
        sent.push({
          member: request.endpoint.split('/').pop() ?? '',
          body: request.body ?? Buffer.alloc(0),
          at: performance.now(),
        });
        return Promise.resolve({ status: 201 });
      },
    },
  });
  const call = async (method: string, url: string, token: string | null, body?: unknown) => {
    const res = await app.inject({
      method: method as 'POST',
      url,
      headers: {
        ...(token ? { authorization: authorizationHeader(token) } : {}),
        'idempotency-key': randomUUID(),
        'created-at': new Date().toISOString(),
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : {}) as Record<string, unknown>;
  };
  const signIn = async (username: string, password: string, client = 'hospital') =>
    String(
      (
        (await call('POST', routes.signIn.path, null, { username, password, twiageClient: client, platform: 'web' }))
          .authorizationToken as { token: string }
      ).token,
    );
  try {
    // Two Stroke team members on Riverside's staff, each with a push subscription.
    const now = new Date().toISOString();
    const ed1Hash = (
      await database.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', 'ed1')
        .executeTakeFirstOrThrow()
    ).password_hash;
    for (const m of MEMBERS) {
      await database.db
        .insertInto('users')
        .values({
          id: `user-${m}`,
          username: m,
          username_key: m,
          email: null,
          email_key: null,
          display_name: m,
          password_hash: ed1Hash,
          disabled: 0,
          features: '[]',
          roles: '["edStaff"]',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await database.db
        .insertInto('hospital_staff')
        .values({ hospital_id: RIVERSIDE, user_id: `user-${m}` })
        .execute();
      const token = await signIn(m, 'demo-ed1');
      await call('POST', routes.pushSubscribe.path, token, {
        registrationToken: {
          endpoint: `http://push.bench/${m}`,
          keys: {
            p256dh: keys.get(m)!.ecdh.getPublicKey().toString('base64url'),
            auth: keys.get(m)!.auth.toString('base64url'),
          },
        },
        topic: `user-user-${m}`,
      });
    }
    const ed1 = await signIn('ed1', 'demo-ed1');
    const medic = await signIn('medic1', 'demo-medic1', 'ems');
    // The team as an org admin defines it (the console's admin signs in with no ED, so straight in).
    const team = { _id: 'bench-stroke-team' };
    await database.db
      .insertInto('hospital_teams')
      .values({
        id: team._id,
        hospital_id: RIVERSIDE,
        kind: 'stroke',
        name: 'Stroke',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await database.db
      .insertInto('hospital_team_members')
      .values(MEMBERS.map((m, position) => ({ team_id: team._id, user_id: `user-${m}`, backup: 0, position })))
      .execute();
    // The cases, outside the timing.
    const cases: { id: string; caseNumber: string }[] = [];
    for (let i = 0; i < count; i++) {
      const created = await call('POST', '/v4/twiageCases', medic, {
        emsAgency: 'agency-riverside-ems',
        truck: 'truck-riverside-medic-1',
        beganAt: new Date().toISOString(),
      });
      const id = String(created.id);
      await call('PATCH', `/v4/twiageCases/${id}`, medic, { destinationHospital: RIVERSIDE });
      cases.push({ id, caseNumber: String(created.caseNumber) });
    }

    // Open loop: Poisson arrivals; each activation is sent at its time whatever the others are doing.
    const startedAt = new Map<string, number>();
    const inFlight: Promise<unknown>[] = [];
    const cpuBefore = process.cpuUsage();
    const wallStart = performance.now();
    let due = wallStart;
    for (const c of cases) {
      due += (-Math.log(1 - Math.random()) / perSecond) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      startedAt.set(c.id, performance.now());
      inFlight.push(
        call('POST', buildPath(routes.activateTeam.path, { id: RIVERSIDE, caseId: c.id }), ed1, { teamId: team._id }),
      );
    }
    await Promise.all(inFlight);
    for (let i = 0; i < 500 && sent.length < count * MEMBERS.length; i++) await new Promise((r) => setTimeout(r, 10));
    const cpu = process.cpuUsage(cpuBefore);
    const latencies: number[] = [];
    for (const push of sent) {
      const payload = JSON.parse(decryptPush(push.body, keys.get(push.member)!)) as { caseId: string };
      const start = startedAt.get(payload.caseId);
      if (start !== undefined) latencies.push(push.at - start);
    }
    latencies.sort((a, b) => a - b);
    if (latencies.length < count * MEMBERS.length) {
      throw new Error(`only ${latencies.length} of ${count * MEMBERS.length} pushes were sent`);
    }
    return {
      count,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      p99: percentile(latencies, 0.99),
      cpuUsPerActivation: (cpu.user + cpu.system) / count,
    };
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runTeamActivation(count = 200, perSecond = 20): Promise<ActivationRun[]> {
  const runs: ActivationRun[] = [];
  for (let i = 0; i < 3; i++) runs.push(await oneRun(count, perSecond));
  return runs;
}

export function printTeamActivation(runs: ActivationRun[], perSecond: number): void {
  const median = <K extends keyof ActivationRun>(key: K) => [...runs].map((r) => r[key]).sort((a, b) => a - b)[1] ?? 0;
  const p95 = median('p95');
  console.info(
    `\nTeam activation → member's push sent (open loop, ${perSecond}/s, ${runs[0]?.count ?? 0} activations × 2 members, median of 3)`,
  );
  console.info(
    `  load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const [i, r] of runs.entries()) {
    console.info(
      `  run ${i + 1}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, CPU ${r.cpuUsPerActivation.toFixed(0)} µs per activation`,
    );
  }
  console.info(
    `  median: p50 ${median('p50').toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target ≤ ${TARGET_P95_MS} ms: ${verdict(p95 <= TARGET_P95_MS)}), CPU ${median('cpuUsPerActivation').toFixed(0)} µs per activation`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 200);
  const perSecond = Number(process.argv[3] ?? 20);
  printTeamActivation(await runTeamActivation(count, perSecond), perSecond);
}
