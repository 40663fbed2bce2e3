/**
 * Hash chains over the audit logs (issue 17, "audit integrity"): every audit row carries the hash of the
 * row before it in its chain, so editing, removing or reordering a stored row breaks the chain at that
 * row, which `npm run audit:verify` finds.
 *
 * - A row's hash is SHA-256 over its chain, its number in the chain (`seq`), the previous row's hash and
 *   its content columns in a fixed order (`AUDIT_TABLES`), so changing any of them changes the hash.
 * - `audit_chain_heads` holds each chain's last number and hash: cutting rows off the end of a chain is
 *   caught too (the head then points past the last row).
 * - Appending updates the head row first, inside the caller's transaction: on PostgreSQL that row lock
 *   makes concurrent appends to one chain take turns (no fork), on SQLite the single writer already does;
 *   a rollback takes the rows and the head move back together.
 * - The busy logs are split into a few chains (by case or by user) so that writes to different cases do
 *   not all queue on one head row; chains are ordered by name when one transaction appends to several, so
 *   two transactions never wait on each other's heads (no deadlock).
 *
 * What it does not do: someone who can write the database freely can recompute every hash. The heads
 * printed by `audit:verify` can be kept elsewhere (a ticket, a log shipper) to anchor them.
 */
import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { prepareStatement } from '../../db/prepared.js';
import { timeOrderedId } from '../../db/time-ordered-id.js';
import type { CaseReadAuditTable, DB } from '../../db/schema.js';

/** The content columns of each chained table, in the order they are hashed. Never reorder: old hashes would break. */
export const AUDIT_TABLES = {
  admin_audit: [
    'id',
    'at',
    'actor_id',
    'actor_name',
    'action',
    'entity_type',
    'entity_id',
    'summary',
    'before',
    'after',
  ],
  case_read_audit: ['id', 'case_id', 'user_id', 'hospital_id', 'access', 'read_at'],
  security_audit: ['id', 'at', 'actor_id', 'action', 'entity_type', 'entity_id', 'case_id', 'detail'],
} as const;
export type AuditTable = keyof typeof AUDIT_TABLES;

/**
 * The logs and the table each is kept in; a chain is named `{log}` or `{log}:{shard}`. admin: changes by
 * organisation admins; read: reads of case data; case: changes of cases; auth: sign-ins, sign-outs,
 * password and MFA changes.
 */
export const AUDIT_LOGS = {
  admin: 'admin_audit',
  read: 'case_read_audit',
  case: 'security_audit',
  auth: 'security_audit',
} as const satisfies Record<string, AuditTable>;
export type AuditLog = keyof typeof AUDIT_LOGS;

export const tableOfChain = (chain: string): AuditTable | undefined =>
  (AUDIT_LOGS as Record<string, AuditTable>)[chain.split(':')[0] ?? ''];

/** The "previous hash" of a chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** Chains a busy log is split into; a chain's name is `{log}:{0..CHAIN_SHARDS-1}`. */
export const CHAIN_SHARDS = 8;

/** The shard of `key` (a case or user id): stable across processes and versions. */
export function chainShard(log: AuditLog, key: string): string {
  const digest = createHash('sha256').update(key).digest();
  return `${log}:${digest.readUInt32BE(0) % CHAIN_SHARDS}`;
}

type Content = Record<string, string | number | null>;

const hashedValues = (table: AuditTable, row: Content) =>
  AUDIT_TABLES[table].map((column) => {
    const value = row[column];
    return value === undefined || value === null ? null : String(value);
  });

/** The hash of one row: its chain, number, the previous hash and its content columns in `AUDIT_TABLES` order. */
export function rowHash(table: AuditTable, chain: string, seq: number, prevHash: string, row: Content): string {
  return createHash('sha256')
    .update(JSON.stringify([table, chain, seq, prevHash, hashedValues(table, row)]))
    .digest('hex');
}

/**
 * The text `rowHash` hashes, around the two parts only the chain's head knows: it is
 * `before + seq + ',"' + prevHash + '",' + after` (a number, and a hex hash that JSON leaves as it is).
 * For a statement that moves the head and hashes the row in SQL (cases.repository.ts, PostgreSQL).
 */
export function rowHashText(table: AuditTable, chain: string, row: Content): { before: string; after: string } {
  return {
    before: `${JSON.stringify([table, chain]).slice(0, -1)},`,
    after: `${JSON.stringify(hashedValues(table, row))}]`,
  };
}

async function moveHead(db: Kysely<DB>, chain: string, count: number): Promise<{ seq: number; hash: string }> {
  const update = () =>
    db
      .updateTable('audit_chain_heads')
      .set({ seq: sql<number>`seq + ${count}` })
      .where('chain', '=', chain)
      .returning(['seq', 'hash'])
      .executeTakeFirst();
  let head = await update();
  if (!head) {
    await db
      .insertInto('audit_chain_heads')
      .values({ chain, seq: 0, hash: GENESIS_HASH })
      .onConflict((oc) => oc.column('chain').doNothing())
      .execute();
    head = await update();
  }
  if (!head) throw new Error(`audit chain ${chain}: head row missing`);
  // The update returns the new number and the hash it has not changed yet: the previous row's.
  return { seq: Number(head.seq) - count, hash: head.hash };
}

/**
 * The statements of a one-row append (a sign-in, a read, an admin change; a case write's rows go with
 * its own statements: cases.repository.ts), built and compiled once per table and dialect
 * (db/prepared.ts) instead of by Kysely on each call. PostgreSQL: the row and the head's new hash go in
 * one statement (a data-modifying CTE), so an append is two round trips, not three.
 */
function oneRowStatements(db: Kysely<DB>, table: AuditTable) {
  const columns = [...AUDIT_TABLES[table], 'chain', 'seq', 'prev_hash', 'hash'] as const;
  const moveHead = prepareStatement(
    db,
    (chain: string) =>
      db
        .updateTable('audit_chain_heads')
        .set({ seq: sql<number>`seq + 1` })
        .where('chain', '=', chain)
        .returning(['seq', 'hash']),
    1,
  );
  // The table's own type is checked by the callers (recordAdminChange, recordReads, recordSecurityEvent).
  const insertRow = (values: unknown[]) =>
    db.insertInto(table).values(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as never);
  const setHash = (hash: string, chain: string) =>
    db.updateTable('audit_chain_heads').set({ hash }).where('chain', '=', chain);
  const arity = columns.length;
  const insert = prepareStatement(db, (...values: unknown[]) => insertRow(values), arity);
  const hash = prepareStatement(db, setHash, 2);
  const insertAndHash = prepareStatement(
    db,
    (...values: unknown[]) =>
      db
        .with('appended_audit', () => insertRow(values.slice(0, arity)))
        .updateTable('audit_chain_heads')
        .set({ hash: values[arity] as string })
        .where('chain', '=', values[arity + 1] as string),
    arity + 2,
  );
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    moveHead,
    async write(trx: Kysely<DB>, values: unknown[], newHash: string, chain: string): Promise<void> {
      if (postgres) {
        await insertAndHash(trx, ...values, newHash, chain);
        return;
      }
      await insert(trx, ...values);
      await hash(trx, newHash, chain);
    },
  };
}

/** Compiled statements per dialect (the SQL differs) and table. */
const prepared = new Map<string, ReturnType<typeof oneRowStatements>>();
function statementsFor(db: Kysely<DB>, table: AuditTable) {
  const key = `${db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'}:${table}`;
  let found = prepared.get(key);
  if (!found) {
    found = oneRowStatements(db, table);
    prepared.set(key, found);
  }
  return found;
}

/** A row whose keys are exactly its table's content columns (what the prepared insert writes). */
function hasExactlyContentColumns(table: AuditTable, row: Content): boolean {
  const columns: readonly string[] = AUDIT_TABLES[table];
  let keys = 0;
  for (const key in row) {
    if (!columns.includes(key)) return false;
    keys += 1;
  }
  return keys === columns.length;
}

async function appendOne(trx: Kysely<DB>, table: AuditTable, chain: string, row: Content): Promise<void> {
  const statements = statementsFor(trx, table);
  let head = (await statements.moveHead(trx, chain)).rows[0];
  if (!head) {
    await trx
      .insertInto('audit_chain_heads')
      .values({ chain, seq: 0, hash: GENESIS_HASH })
      .onConflict((oc) => oc.column('chain').doNothing())
      .execute();
    head = (await statements.moveHead(trx, chain)).rows[0];
  }
  if (!head) throw new Error(`audit chain ${chain}: head row missing`);
  // The update answers the new number and the hash it has not changed yet: the previous row's.
  const seq = Number(head.seq);
  const prevHash = head.hash;
  const hash = rowHash(table, chain, seq, prevHash, row);
  const values: unknown[] = AUDIT_TABLES[table].map((column) => row[column] ?? null);
  values.push(chain, seq, prevHash, hash);
  await statements.write(trx, values, hash, chain);
}

async function appendInTransaction(
  trx: Kysely<DB>,
  table: AuditTable,
  rows: readonly { chain: string; row: Content }[],
): Promise<void> {
  const only = rows.length === 1 ? rows[0]! : null;
  if (only && hasExactlyContentColumns(table, only.row)) return appendOne(trx, table, only.chain, only.row);
  const byChain = new Map<string, Content[]>();
  for (const { chain, row } of rows) byChain.set(chain, [...(byChain.get(chain) ?? []), row]);
  for (const chain of [...byChain.keys()].sort()) {
    const contents = byChain.get(chain) ?? [];
    const head = await moveHead(trx, chain, contents.length);
    let prevHash = head.hash;
    const chained = contents.map((row, index) => {
      const seq = head.seq + index + 1;
      const hash = rowHash(table, chain, seq, prevHash, row);
      const out = { ...row, chain, seq, prev_hash: prevHash, hash };
      prevHash = hash;
      return out;
    });
    // The table's own type is checked by the callers (recordAdminChange, recordReads, recordSecurityEvent).
    await trx
      .insertInto(table)
      .values(chained as never)
      .execute();
    await trx.updateTable('audit_chain_heads').set({ hash: prevHash }).where('chain', '=', chain).execute();
  }
}

/**
 * Appends rows to their chains. Pass the change's transaction when there is one (the entry then exists
 * exactly when the change does); otherwise the append gets a transaction of its own.
 */
export async function appendAudit(
  db: Kysely<DB>,
  table: AuditTable,
  rows: readonly { chain: string; row: Content }[],
): Promise<void> {
  if (rows.length === 0) return;
  if (db.isTransaction) await appendInTransaction(db, table, rows);
  else await db.transaction().execute((trx) => appendInTransaction(trx, table, rows));
}

export interface ChainProblem {
  table: AuditTable;
  chain: string;
  seq: number;
  /** What is wrong, in one sentence. */
  problem: string;
}

export interface VerifyResult {
  rows: number;
  chains: { chain: string; seq: number; hash: string }[];
  /** The first broken link of each broken chain, in chain order; empty when every chain holds. */
  problems: ChainProblem[];
}

const VERIFY_PAGE = 1_000;

/**
 * Walks every chain of every audit table from its first row, recomputing each hash, and reports the
 * first broken link of each chain: a row whose content no longer matches its hash, a gap in the
 * numbers (a removed row), a row whose `prev_hash` is not its predecessor's hash, or a head that points
 * past the last row (rows cut off the end). Reads page by page: memory stays flat on a large log.
 */
export async function verifyAuditChains(db: Kysely<DB>): Promise<VerifyResult> {
  const heads = await db.selectFrom('audit_chain_heads').selectAll().orderBy('chain').execute();
  const headOf = new Map(heads.map((head) => [head.chain, head]));
  const problems: ChainProblem[] = [];
  let total = 0;
  for (const table of Object.keys(AUDIT_TABLES) as AuditTable[]) {
    const stored = await db.selectFrom(table).select('chain').distinct().execute();
    if (stored.some((row) => row.chain === null))
      problems.push({ table, chain: '(none)', seq: 0, problem: 'rows outside any chain' });
    // A chain whose rows were all removed still has its head: walk the heads' chains too.
    const names = new Set<string>(stored.flatMap((row) => (row.chain === null ? [] : [row.chain])));
    for (const head of heads) if (tableOfChain(head.chain) === table) names.add(head.chain);
    for (const chain of [...names].sort()) {
      let expectedSeq = 1;
      let prevHash = GENESIS_HASH;
      let broken: string | null = null;
      for (;;) {
        const page = await db
          .selectFrom(table)
          .selectAll()
          .where('chain', '=', chain)
          .where('seq', '>=', expectedSeq)
          .orderBy('seq')
          .limit(VERIFY_PAGE)
          .execute();
        for (const raw of page) {
          const row = raw as unknown as Content & { seq: number; prev_hash: string; hash: string };
          const seq = Number(row.seq);
          total += 1;
          if (seq !== expectedSeq) broken = `row ${expectedSeq} is missing (next is ${seq})`;
          else if (row.prev_hash !== prevHash) broken = `row ${seq} does not follow row ${seq - 1} (prev_hash differs)`;
          else if (rowHash(table, chain, seq, prevHash, row) !== row.hash)
            broken = `row ${seq} was changed (hash differs)`;
          if (broken) {
            problems.push({ table, chain, seq: expectedSeq, problem: broken });
            break;
          }
          prevHash = row.hash;
          expectedSeq += 1;
        }
        if (broken || page.length < VERIFY_PAGE) break;
      }
      if (broken) continue;
      const head = headOf.get(chain);
      const last = expectedSeq - 1;
      if (!head) problems.push({ table, chain, seq: last, problem: 'the chain has no head row' });
      else if (Number(head.seq) !== last || head.hash !== prevHash)
        problems.push({
          table,
          chain,
          seq: last,
          problem: `the head says row ${Number(head.seq)} is last, the table ends at row ${last} (rows removed from the end?)`,
        });
    }
  }
  return {
    rows: total,
    chains: heads.map((head) => ({ chain: head.chain, seq: Number(head.seq), hash: head.hash })),
    problems,
  };
}

/** A row as its writer makes it: the chain columns are filled in by `appendAudit`. */
export type Unchained<T> = Omit<T, 'chain' | 'seq' | 'prev_hash' | 'hash'>;

/** Appends case reads, each to its reader's chain, under an id of its own. */
export function appendReads(db: Kysely<DB>, rows: readonly Omit<Unchained<CaseReadAuditTable>, 'id'>[]): Promise<void> {
  return appendAudit(
    db,
    'case_read_audit',
    rows.map((row) => ({ chain: chainShard('read', row.user_id), row: { id: timeOrderedId(), ...row } })),
  );
}
