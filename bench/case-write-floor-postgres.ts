/**
 * The floor under `case-write-cpu.ts` on PostgreSQL (issue 11, item 2): what the SAME rows of a case
 * event cost when sent by bare node-postgres — no Fastify, Kysely, zod or the relay's real-time work —
 * to a database with the real schema and 200 cases started through the real app. Each write is its own
 * transaction (as the server's are on PostgreSQL), committed with synchronous_commit=on; 64 writers
 * share a pool of 10 connections (the server's default); every statement is a named prepared one
 * (decision 0045). Figures per event: this process's CPU, PostgreSQL's CPU (every `postgres` process,
 * bench/lib/server.ts), their sum, and the events/s that sum allows on this machine's cores.
 *
 * Variants (the same rows in each — the event, its outbox row, the case's columns and version, the
 * audit row on its chain with the head's move, the idempotency key with its answer — relayed in
 * batches of 100):
 *   9 round trips          — the server's shape before decision 0045: the key + case + access read,
 *                            BEGIN, the row lock, the case update, the event + outbox + version (one
 *                            CTE), the audit head's move, the audit row + head hash (one CTE), the key,
 *                            COMMIT
 *   6 round trips          — the server's shape since (decision 0045): the read, BEGIN, the row lock, the
 *                            event + outbox + case update + head's move (one CTE), the audit row + head
 *                            hash + key (one CTE), COMMIT
 *   5 round trips          — the read, BEGIN, the row lock with the audit head's move (one statement),
 *                            everything else in one CTE, COMMIT
 *
 *   npx tsx bench/case-write-floor-postgres.ts   # BENCH_WRITES (3,000), BENCH_RUNS (3)
 */
import { createHash, randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { Writable } from 'node:stream';
import pg from 'pg';
import { timeOrderedId } from '../apps/server/src/db/time-ordered-id.js';
import { createTestApp } from '../apps/server/src/test/app.js';
import { RIVERSIDE_TRUCK, startCase } from '../apps/server/src/test/crew-api.js';
import { IDS } from '../apps/server/src/seed/demo-data.js';
import { postgresCpuSeconds } from './lib/server.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 3_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WRITERS = 64;
const POOL = 10;
const CASES = 200;
const RELAY_BATCH = 100;
const GENESIS = '0'.repeat(64);

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const t = await createTestApp({ dialect: 'postgres', env: { LOG_LEVEL: 'info' }, logStream: discard as never });
const token = await t.signIn('medic1');
const cases: string[] = [];
for (let i = 0; i < CASES; i++) cases.push((await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id);
await t.app.close(); // the database stays; its relay and timers stop
const userId = IDS.users.medic1;
const pool = new pg.Pool({ connectionString: t.database.url, max: POOL, options: '-c synchronous_commit=on' });
// An idle connection dropped by the server (the database's removal at the end) must not crash the bench.
pool.on('error', (error) => console.warn(`PostgreSQL idle connection lost: ${error.message}`));

const chainOf = (caseId: string) => `case:${createHash('sha256').update(caseId).digest().readUInt32BE(0) % 8}`;
for (let shard = 0; shard < 8; shard++)
  await pool.query(`insert into audit_chain_heads (chain, seq, hash) values ($1, 0, $2) on conflict do nothing`, [
    `case:${shard}`,
    GENESIS,
  ]);

const READ_FOR_WRITE = `select cases.*, case_access.role as access_role, stored.request_hash, stored.response
  from cases left join case_access on case_access.case_id = cases.id and case_access.user_id = $1
  left join case_idempotency_keys as stored on stored.user_id = $2 and stored.key = $3 where cases.id = $4`;
const EVENT_COLUMNS = `(id, case_id, seq, type, actor_user_id, created_at, client_created_at, payload)`;
const AUDIT_COLUMNS = `(id, at, actor_id, action, entity_type, entity_id, case_id, detail, chain, seq, prev_hash, hash)`;
const KEY_COLUMNS = `(user_id, key, case_id, request_hash, status, response, created_at)`;

/** Runs one named statement on a connection. */
const run = (client: pg.PoolClient, name: string, text: string, values: unknown[] = []) =>
  client.query({ name, text, values });

/** Runs `work` in one transaction on `client`: committed, or rolled back when it throws. */
async function inTransaction(client: pg.PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await work();
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

interface Write {
  caseId: string;
  key: string;
  now: string;
  age: number;
  eventId: string;
  payload: string;
  request: string;
}

function newWrite(n: number): Write {
  const caseId = cases[n % CASES]!;
  const age = 1 + (n % 99);
  const payload = JSON.stringify({ age, agePeriod: 3 });
  return {
    caseId,
    key: randomUUID(),
    now: new Date().toISOString(),
    age,
    eventId: timeOrderedId(),
    payload,
    request: createHash('sha256').update(`PATCH /v4/twiageCases/${caseId}\n${payload}`).digest('hex'),
  };
}

const auditRow = (w: Write, seq: number) => [
  timeOrderedId(),
  w.now,
  userId,
  'case.age',
  'case',
  w.caseId,
  w.caseId,
  JSON.stringify({ eventId: w.eventId, seq }),
];
const auditHash = (chain: string, seq: number, prev: string, row: unknown[]) =>
  createHash('sha256')
    .update(JSON.stringify(['security_audit', chain, seq, prev, row]))
    .digest('hex');
const answerOf = (w: Write, seq: number) =>
  JSON.stringify({ id: w.caseId, event: { id: w.eventId, seq, type: 'age', createdAt: w.now } });

/** The server's shape before decision 0045: 9 round trips. */
async function nineRoundTrips(client: pg.PoolClient, w: Write): Promise<void> {
  await run(client, 'read', READ_FOR_WRITE, [userId, userId, w.key, w.caseId]);
  await inTransaction(client, async () => {
    const { rows } = await run(client, 'lock', 'select * from cases where id = $1 for update', [w.caseId]);
    const seq = Number(rows[0].version) + 1;
    await run(client, 'age', 'update cases set age = $1, age_period = $2 where id = $3', [w.age, 3, w.caseId]);
    await run(
      client,
      'append',
      `with e as (insert into case_events ${EVENT_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8)),
      o as (insert into case_outbox (event_id, case_id, seq, created_at) values ($9, $10, $11, $12))
      update cases set version = $13, updated_at = $14 where id = $15`,
      [
        w.eventId,
        w.caseId,
        seq,
        'age',
        userId,
        w.now,
        w.now,
        w.payload,
        w.eventId,
        w.caseId,
        seq,
        w.now,
        seq,
        w.now,
        w.caseId,
      ],
    );
    const chain = chainOf(w.caseId);
    const head = (
      await run(client, 'head', 'update audit_chain_heads set seq = seq + 1 where chain = $1 returning seq, hash', [
        chain,
      ])
    ).rows[0] as { seq: number; hash: string };
    const row = auditRow(w, seq);
    const hash = auditHash(chain, head.seq, head.hash, row);
    await run(
      client,
      'audit',
      `with a as (insert into security_audit ${AUDIT_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12))
      update audit_chain_heads set hash = $13 where chain = $14`,
      [...row, chain, head.seq, head.hash, hash, hash, chain],
    );
    await run(client, 'key', `insert into case_idempotency_keys ${KEY_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7)`, [
      userId,
      w.key,
      w.caseId,
      w.request,
      200,
      answerOf(w, seq),
      w.now,
    ]);
  });
}

/** The server's shape since decision 0045: 6 round trips. */
async function sixRoundTrips(client: pg.PoolClient, w: Write): Promise<void> {
  await run(client, 'read', READ_FOR_WRITE, [userId, userId, w.key, w.caseId]);
  await inTransaction(client, async () => {
    const { rows } = await run(client, 'lock', 'select * from cases where id = $1 for update', [w.caseId]);
    const seq = Number(rows[0].version) + 1;
    const chain = chainOf(w.caseId);
    const head = (
      await run(
        client,
        'append-and-head',
        `with e as (insert into case_events ${EVENT_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8)),
        o as (insert into case_outbox (event_id, case_id, seq, created_at) values ($1, $2, $3, $6)),
        c as (update cases set age = $9, age_period = 3, version = $3, updated_at = $6 where id = $2)
        update audit_chain_heads set seq = seq + 1 where chain = $10 returning seq, hash`,
        [w.eventId, w.caseId, seq, 'age', userId, w.now, w.now, w.payload, w.age, chain],
      )
    ).rows[0] as { seq: number; hash: string };
    const row = auditRow(w, seq);
    const hash = auditHash(chain, head.seq, head.hash, row);
    await run(
      client,
      'audit-and-key',
      `with a as (insert into security_audit ${AUDIT_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)),
      h as (update audit_chain_heads set hash = $12 where chain = $9)
      insert into case_idempotency_keys ${KEY_COLUMNS} values ($3, $13, $7, $14, 200, $15, $2)`,
      [...row, chain, head.seq, head.hash, hash, w.key, w.request, answerOf(w, seq)],
    );
  });
}

/** The same rows in 5 round trips: the row lock and the head's move in one statement, the writes in one CTE. */
async function fiveRoundTrips(client: pg.PoolClient, w: Write): Promise<void> {
  await run(client, 'read', READ_FOR_WRITE, [userId, userId, w.key, w.caseId]);
  await inTransaction(client, async () => {
    const chain = chainOf(w.caseId);
    const { rows } = await run(
      client,
      'lock-and-head',
      `with locked as (select * from cases where id = $1 for update),
      head as (update audit_chain_heads set seq = seq + 1 where chain = $2 returning seq, hash)
      select locked.version, head.seq as head_seq, head.hash as head_hash from locked, head`,
      [w.caseId, chain],
    );
    const found = rows[0] as { version: number; head_seq: number; head_hash: string };
    const seq = Number(found.version) + 1;
    const row = auditRow(w, seq);
    const hash = auditHash(chain, found.head_seq, found.head_hash, row);
    await run(
      client,
      'write-all',
      `with e as (insert into case_events ${EVENT_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8)),
      o as (insert into case_outbox (event_id, case_id, seq, created_at) values ($1, $2, $3, $6)),
      a as (insert into security_audit ${AUDIT_COLUMNS} values ($9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)),
      h as (update audit_chain_heads set hash = $20 where chain = $17),
      k as (insert into case_idempotency_keys ${KEY_COLUMNS} values ($5, $21, $2, $22, 200, $23, $6))
      update cases set age = $24, age_period = 3, version = $3, updated_at = $6 where id = $2`,
      [
        ...[w.eventId, w.caseId, seq, 'age', userId, w.now, w.now, w.payload],
        ...row,
        ...[chain, found.head_seq, found.head_hash, hash],
        ...[w.key, w.request, answerOf(w, seq), w.age],
      ],
    );
  });
}

/** The relay's database work per batch: read the outbox with its events, store their messages, delete the rows. */
async function relay(): Promise<void> {
  const client = await pool.connect();
  try {
    for (;;) {
      const { rows } = await run(
        client,
        'relay-read',
        `select case_events.* from case_outbox join case_events on case_events.id = case_outbox.event_id
          order by case_outbox.created_at, case_outbox.case_id, case_outbox.seq limit $1`,
        [RELAY_BATCH],
      );
      if (rows.length === 0) return;
      const ids = rows.map((row: { id: string }) => row.id);
      const now = new Date().toISOString();
      await client.query('begin');
      await run(
        client,
        'relay-messages',
        `with x as (select id, case_id, row_number() over (partition by case_id order by ord) as n,
              count(*) over (partition by case_id) as of from unnest($1::text[], $2::text[]) with ordinality as u(id, case_id, ord)),
            c as (insert into realtime_channels (channel, seq, updated_at)
              select 'case:' || case_id, count(*), $3 from x group by case_id
              on conflict (channel) do update set seq = realtime_channels.seq + excluded.seq, updated_at = excluded.updated_at
              returning channel, seq)
          insert into realtime_messages (channel, seq, event, created_at, dedupe_key)
          select c.channel, c.seq - x.of + x.n, '{}', $3, x.id from x join c on c.channel = 'case:' || x.case_id`,
        [ids, rows.map((row: { case_id: string }) => row.case_id), now],
      );
      await run(client, 'relay-delete', 'delete from case_outbox where event_id = any($1::text[])', [ids]);
      await client.query('commit');
    }
  } finally {
    client.release();
  }
}

async function measure(
  write: typeof nineRoundTrips,
): Promise<{ nodeUs: number; databaseUs: number; perSecond: number }> {
  await relay();
  const cpu = process.cpuUsage();
  const databaseCpu = postgresCpuSeconds();
  const start = performance.now();
  let next = 0;
  let relaying: Promise<void> | null = null;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < WRITES) {
        const w = newWrite(next++);
        const client = await pool.connect();
        try {
          await write(client, w);
        } finally {
          client.release();
        }
        if (next % RELAY_BATCH === 0) relaying ??= relay().finally(() => (relaying = null));
      }
    }),
  );
  await relaying;
  await relay();
  const wall = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    nodeUs: (used.user + used.system) / WRITES,
    databaseUs: ((postgresCpuSeconds() - databaseCpu) * 1e6) / WRITES,
    perSecond: WRITES / wall,
  };
}

const variants = [
  { name: '9 round trips', write: nineRoundTrips },
  { name: '6 round trips', write: sixRoundTrips },
  { name: '5 round trips', write: fiveRoundTrips },
];
for (const v of variants) await measure(v.write); // warm-up: plans, the database's pages
const figures = new Map(variants.map((v) => [v.name, [] as Awaited<ReturnType<typeof measure>>[]]));
// Alternated run by run, so a change in the machine's load falls on every variant alike.
for (let i = 0; i < RUNS; i++) for (const v of variants) figures.get(v.name)!.push(await measure(v.write));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cores = availableParallelism();
console.info(
  `case write floor, bare node-postgres, synchronous_commit=on, ${WRITES} events ×${RUNS}, ${WRITERS} writers on ${POOL} connections — load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.info(
  '  variant                  Node µs  PostgreSQL µs  sum µs  ceiling on ' + cores + ' cores  measured events/s',
);
for (const [name, runs] of figures) {
  const node = median(runs.map((r) => r.nodeUs));
  const database = median(runs.map((r) => r.databaseUs));
  console.info(
    `  ${name.padEnd(22)} ${node.toFixed(0).padStart(8)} ${database.toFixed(0).padStart(14)} ${(node + database).toFixed(0).padStart(7)}` +
      ` ${((cores * 1e6) / (node + database)).toFixed(0).padStart(14)}/s ${median(runs.map((r) => r.perSecond))
        .toFixed(0)
        .padStart(12)}/s`,
  );
}
await pool.end();
await t.database.destroy();
