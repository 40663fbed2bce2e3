/**
 * Issue 15, decision 0038: the charge nurses of a hospital (its admin designates them among its ED
 * staff), the offload alerts sent to them (one row per case, hospital and arrival: the primary key is
 * what makes the alert go once across processes), and the crew's hand-over watches after the close (an
 * opaque token's hash, bound to the crew user who asked, expiring; the device keeps only the token).
 * Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('hospital_charge_nurses')
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('hospital_charge_nurses_pk', ['hospital_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('offload_alerts')
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('arrived_at', 'text', (c) => c.notNull())
    .addColumn('threshold_minutes', 'integer', (c) => c.notNull())
    .addColumn('alerted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('offload_alerts_pk', ['case_id', 'hospital_id', 'arrived_at'])
    .execute();
  await db.schema
    .createIndex('offload_alerts_hospital_idx')
    .on('offload_alerts')
    .columns(['hospital_id', 'alerted_at'])
    .execute();
  await db.schema
    .createTable('handoff_watches')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('hospital_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('handoff_watches_expiry_idx').on('handoff_watches').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('handoff_watches').ifExists().execute();
  await db.schema.dropTable('offload_alerts').ifExists().execute();
  await db.schema.dropTable('hospital_charge_nurses').ifExists().execute();
}
