/**
 * Audit integrity (issue 17): the audit logs become hash chains (modules/audit/audit-chain.ts). Both
 * existing logs get `chain, seq, prev_hash, hash`; a third log, `security_audit`, records sign-ins,
 * sign-outs, password and MFA changes and every change of a case (ids and codes only, never patient data
 * or a token). `audit_chain_heads` keeps each chain's last number and hash. Rows already stored are
 * chained here, oldest first, so `audit:verify` holds on an upgraded database.
 */
import type { Kysely } from 'kysely';
import { chainShard, rowHash, type AuditTable } from '../../modules/audit/audit-chain.js';
import type { DB } from '../schema.js';

type AnyDb = Kysely<unknown>;

const CHAINED = ['admin_audit', 'case_read_audit'] as const;

async function addChainColumns(db: AnyDb, table: string): Promise<void> {
  await db.schema.alterTable(table).addColumn('chain', 'text').execute();
  await db.schema.alterTable(table).addColumn('seq', 'integer').execute();
  await db.schema.alterTable(table).addColumn('prev_hash', 'text').execute();
  await db.schema.alterTable(table).addColumn('hash', 'text').execute();
  await db.schema.createIndex(`${table}_chain_idx`).on(table).columns(['chain', 'seq']).unique().execute();
}

/** Chains the rows stored before this migration, oldest first, as appendAudit would have. */
async function backfill(db: Kysely<DB>, table: AuditTable, order: 'at' | 'read_at', chainOf: (row: never) => string) {
  const rows = (await db
    .selectFrom(table)
    .selectAll()
    .orderBy(order as never)
    .orderBy('id')
    .execute()) as unknown as Record<string, string | null>[];
  const heads = new Map<string, { seq: number; hash: string }>();
  for (const row of rows) {
    const chain = chainOf(row as never);
    const head = heads.get(chain) ?? { seq: 0, hash: '0'.repeat(64) };
    const seq = head.seq + 1;
    const hash = rowHash(table, chain, seq, head.hash, row);
    await db
      .updateTable(table)
      .set({ chain, seq, prev_hash: head.hash, hash } as never)
      .where('id', '=', row.id as string)
      .execute();
    heads.set(chain, { seq, hash });
  }
  for (const [chain, head] of heads)
    await db
      .insertInto('audit_chain_heads')
      .values({ chain, ...head })
      .execute();
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_chain_heads')
    .addColumn('chain', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  for (const table of CHAINED) await addChainColumns(db, table);
  await db.schema
    .createTable('security_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    /** Who did it; null for a failed sign-in under a name that is no account. */
    .addColumn('actor_id', 'text')
    /** auth.signIn, auth.signInFailed, auth.signOut, auth.passwordChange, mfa.*, case.{event type} */
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text')
    /** JSON of ids and codes (client, address, event id, reason) — never patient data or a token. */
    .addColumn('detail', 'text')
    .addColumn('chain', 'text')
    .addColumn('seq', 'integer')
    .addColumn('prev_hash', 'text')
    .addColumn('hash', 'text')
    .execute();
  await db.schema
    .createIndex('security_audit_chain_idx')
    .on('security_audit')
    .columns(['chain', 'seq'])
    .unique()
    .execute();
  await db.schema.createIndex('security_audit_at_idx').on('security_audit').columns(['at', 'id']).execute();
  await db.schema.createIndex('security_audit_case_idx').on('security_audit').columns(['case_id', 'at']).execute();
  await db.schema.createIndex('security_audit_actor_idx').on('security_audit').columns(['actor_id', 'at']).execute();

  const typed = db as unknown as Kysely<DB>;
  await backfill(typed, 'admin_audit', 'at', () => 'admin');
  await backfill(typed, 'case_read_audit', 'read_at', (row: { user_id: string }) => chainShard('read', row.user_id));
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('security_audit').ifExists().execute();
  for (const table of CHAINED) {
    await db.schema.dropIndex(`${table}_chain_idx`).ifExists().execute();
    for (const column of ['hash', 'prev_hash', 'seq', 'chain'])
      await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.dropTable('audit_chain_heads').ifExists().execute();
}
