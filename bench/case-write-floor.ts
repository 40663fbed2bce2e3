/**
 * The floor under `case-write-cpu.ts` (issue 11, item 3): what the SAME rows cost when written by bare
 * better-sqlite3 — no Fastify, Kysely, zod or promises — on a copy of the same database (the real schema
 * and indexes, 200 started cases), in the same groups, committed with synchronous=FULL (each COMMIT
 * fsyncs the WAL, as the server's commits wait for theirs). Per event, as the server does:
 *
 *   reads:  the idempotency key (a miss), the case with the user's access role;
 *   write:  savepoint, the case row read under the lock, the case update, the event, its outbox row, the
 *           case's version, the audit chain's head move, the audit row (hash computed), the head's hash,
 *           the idempotency key with its answer, release; one BEGIN/COMMIT per group;
 *   relay:  per batch of 100 the outbox read, per event the case read and the dedupe-key point read of its
 *           real-time message, per batch the channel counters' upsert and the messages' insert, the delete.
 *
 * Variants, each the median of BENCH_RUNS runs of CPU µs per event (this process, all threads):
 *   full                 — everything above
 *   no relay read-back   — without the relay's per-event case read
 *   no audit row         — without the three audit statements
 *   event only           — the event, its outbox row, the version and the key (the least a durable,
 *                          idempotent event needs), no reads, no relay
 *
 *   npx tsx bench/case-write-floor.ts      # BENCH_WRITES (4,000), BENCH_GROUP (64), BENCH_RUNS (3)
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { timeOrderedId } from '../apps/server/src/db/time-ordered-id.js';
import { createTestApp } from '../apps/server/src/test/app.js';
import { RIVERSIDE_TRUCK, startCase } from '../apps/server/src/test/crew-api.js';
import { IDS } from '../apps/server/src/seed/demo-data.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 4_000);
const GROUP = Number(process.env.BENCH_GROUP ?? 64);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CASES = 200;
const RELAY_BATCH = 100;

// A copy of the server's database after 200 cases were started through the real app.
const dir = mkdtempSync(path.join(tmpdir(), 'inbound-floor-'));
const file = path.join(dir, 'floor.db');
const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const t = await createTestApp({ dialect: 'sqlite', env: { LOG_LEVEL: 'info' }, logStream: discard as never });
const token = await t.signIn('medic1');
const cases: string[] = [];
for (let i = 0; i < CASES; i++) cases.push((await startCase(t, token, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id);
const userId = IDS.users.medic1;
await sql`vacuum into ${file}`.execute(t.database.db);
await t.close();

const writer = new SQLite(file);
writer.pragma('journal_mode = WAL');
writer.pragma('synchronous = FULL');
writer.pragma('foreign_keys = ON');
const reader = new SQLite(file, { readonly: true });

const w = (text: string) => writer.prepare(text);
const s = {
  begin: w('begin'),
  commit: w('commit'),
  savepoint: w('savepoint group_job'),
  release: w('release savepoint group_job'),
  readKey: reader.prepare('select * from "case_idempotency_keys" where "user_id" = ? and "key" = ?'),
  readWithAccess: reader.prepare(
    'select "cases".*, "case_access"."role" as "access_role" from "cases" left join "case_access" on "case_access"."case_id" = "cases"."id" and "case_access"."user_id" = ? where "cases"."id" = ?',
  ),
  lockRead: w('select * from "cases" where "id" = ?'),
  updateAge: w('update "cases" set "age" = ?, "age_period" = ? where "id" = ?'),
  insertEvent: w(
    'insert into "case_events" ("id", "case_id", "seq", "type", "actor_user_id", "created_at", "client_created_at", "payload") values (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  insertOutbox: w('insert into "case_outbox" ("event_id", "case_id", "seq", "created_at") values (?, ?, ?, ?)'),
  moveVersion: w('update "cases" set "version" = ?, "updated_at" = ? where "id" = ?'),
  headMove: w('update "audit_chain_heads" set "seq" = seq + 1 where "chain" = ? returning "seq", "hash"'),
  headCreate: w('insert into "audit_chain_heads" ("chain", "seq", "hash") values (?, 0, ?) on conflict do nothing'),
  insertAudit: w(
    'insert into "security_audit" ("id", "at", "actor_id", "action", "entity_type", "entity_id", "case_id", "detail", "chain", "seq", "prev_hash", "hash") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  headHash: w('update "audit_chain_heads" set "hash" = ? where "chain" = ?'),
  insertKey: w(
    'insert into "case_idempotency_keys" ("user_id", "key", "case_id", "request_hash", "status", "response", "created_at") values (?, ?, ?, ?, ?, ?, ?)',
  ),
  relayRead: w(
    'select "case_events".* from "case_outbox" inner join "case_events" on "case_events"."id" = "case_outbox"."event_id" order by "case_outbox"."created_at", "case_outbox"."case_id", "case_outbox"."seq" limit ?',
  ),
  dedupe: w('select "seq" from "realtime_messages" where "channel" = ? and "dedupe_key" = ?'),
  bumpChannel: w(
    'insert into "realtime_channels" ("channel", "seq", "updated_at") values (?, 1, ?) on conflict ("channel") do update set "seq" = realtime_channels.seq + 1, "updated_at" = excluded.updated_at returning "seq"',
  ),
  insertMessage: w(
    'insert into "realtime_messages" ("channel", "seq", "event", "created_at", "dedupe_key") values (?, ?, ?, ?, ?)',
  ),
  deleteOutbox: w('delete from "case_outbox" where "event_id" = ?'),
};

interface Variant {
  name: string;
  reads: boolean;
  audit: boolean;
  relay: boolean;
  relayCaseRead: boolean;
  lockAndUpdate: boolean;
}

const versions = new Map<string, number>();
for (const row of writer.prepare('select id, version from cases').all() as { id: string; version: number }[])
  versions.set(row.id, Number(row.version));

function chainOf(caseId: string): string {
  return `case:${createHash('sha256').update(caseId).digest().readUInt32BE(0) % 8}`;
}

function oneEvent(v: Variant, n: number): void {
  const caseId = cases[n % CASES]!;
  const key = randomUUID();
  const now = new Date().toISOString();
  if (v.reads) {
    s.readKey.get(userId, key);
    s.readWithAccess.get(userId, caseId);
  }
  s.savepoint.run();
  if (v.lockAndUpdate) {
    s.lockRead.get(caseId);
    s.updateAge.run(1 + (n % 99), 3, caseId);
  }
  const seq = (versions.get(caseId) ?? 0) + 1;
  versions.set(caseId, seq);
  const eventId = timeOrderedId();
  const payload = JSON.stringify({ age: 1 + (n % 99), agePeriod: 3 });
  s.insertEvent.run(eventId, caseId, seq, 'age', userId, now, now, payload);
  s.insertOutbox.run(eventId, caseId, seq, now);
  s.moveVersion.run(seq, now, caseId);
  if (v.audit) {
    const chain = chainOf(caseId);
    let head = s.headMove.get(chain) as { seq: number; hash: string } | undefined;
    if (!head) {
      s.headCreate.run(chain, '0'.repeat(64));
      head = s.headMove.get(chain) as { seq: number; hash: string };
    }
    const row = [timeOrderedId(), now, userId, 'case.age', 'case', caseId, caseId, JSON.stringify({ eventId, seq })];
    const hash = createHash('sha256')
      .update(JSON.stringify(['security_audit', chain, head.seq, head.hash, row]))
      .digest('hex');
    s.insertAudit.run(...row, chain, head.seq, head.hash, hash);
    s.headHash.run(hash, chain);
  }
  const request = createHash('sha256').update(`PATCH /v4/twiageCases/${caseId}\n${payload}`).digest('hex');
  const answer = JSON.stringify({ id: caseId, event: { id: eventId, seq, type: 'age', createdAt: now } });
  s.insertKey.run(userId, key, caseId, request, 200, answer, now);
  s.release.run();
}

function relay(v: Variant): void {
  for (;;) {
    const rows = s.relayRead.all(RELAY_BATCH) as { id: string; case_id: string; payload: string }[];
    if (rows.length === 0) return;
    const now = new Date().toISOString();
    s.begin.run();
    for (const row of rows) {
      if (v.relayCaseRead) s.lockRead.get(row.case_id);
      const channel = `case:${row.case_id}`;
      if (s.dedupe.get(channel, row.id)) continue; // announced already (as the relay does)
      const { seq } = s.bumpChannel.get(channel, now) as { seq: number };
      s.insertMessage.run(channel, seq, JSON.stringify({ type: 'case.updated', data: row }), now, row.id);
    }
    for (const row of rows) s.deleteOutbox.run(row.id);
    s.commit.run();
  }
}

function measure(v: Variant): number {
  const cpu = process.cpuUsage();
  for (let n = 0; n < WRITES; n += GROUP) {
    s.begin.run();
    for (let i = n; i < Math.min(WRITES, n + GROUP); i++) oneEvent(v, i);
    s.commit.run();
    if (v.relay) relay(v);
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / WRITES;
}

const base: Variant = {
  name: 'full',
  reads: true,
  audit: true,
  relay: true,
  relayCaseRead: true,
  lockAndUpdate: true,
};
const ONLY = process.env.BENCH_VARIANTS?.split(',');
const all: Variant[] = [
  base,
  { ...base, name: 'no relay read-back', relayCaseRead: false },
  { ...base, name: 'no audit row', audit: false },
  { ...base, name: 'event only', reads: false, audit: false, relay: false, lockAndUpdate: false },
];

const variants = ONLY ? all.filter((v) => ONLY.includes(v.name)) : all;

measure(base); // warm-up: statement caches, the database's pages
const figures = new Map<string, number[]>(variants.map((v) => [v.name, []]));
// Alternated run by run, so a change in the machine's load falls on every variant alike.
for (let run = 0; run < RUNS; run++) for (const v of variants) figures.get(v.name)!.push(measure(v));
console.info(
  `case write floor, bare better-sqlite3, synchronous=FULL, ${WRITES} events in groups of ${GROUP} ×${RUNS} — load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const [name, runs] of figures) {
  const sorted = [...runs].sort((a, b) => a - b);
  console.info(
    `  ${name.padEnd(20)} ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0).padStart(5)} µs per event  [runs: ${runs.map((r) => r.toFixed(0)).join(', ')}]`,
  );
}
writer.close();
reader.close();
rmSync(dir, { recursive: true, force: true });
