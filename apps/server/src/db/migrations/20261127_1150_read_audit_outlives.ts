/**
 * Audit rows outlive what they name (issue 17): `case_read_audit` referenced cases and users with
 * ON DELETE CASCADE, so deleting a case or a user removed rows from the middle of a hash chain and
 * `audit:verify` then reported the chain broken. The log keeps ids only, with no foreign key: a deleted
 * case's or user's read history stays, and the chain holds. (`admin_audit` and `security_audit` never
 * had foreign keys.)
 *
 * PostgreSQL drops the two constraints; SQLite cannot drop a constraint, so the table is rebuilt
 * (same columns, same rows, same order of ids) and its indexes made again. `down` puts the cascades back.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

const isPostgres = (db: AnyDb): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

const COLUMNS = 'id, case_id, user_id, hospital_id, access, read_at, chain, seq, prev_hash, hash';

/** SQLite: the table again, with or without the cascading references, holding the same rows. */
async function rebuildOnSqlite(db: AnyDb, withReferences: boolean): Promise<void> {
  await db.schema
    .createTable('case_read_audit_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) =>
      withReferences ? c.notNull().references('cases.id').onDelete('cascade') : c.notNull(),
    )
    .addColumn('user_id', 'text', (c) =>
      withReferences ? c.notNull().references('users.id').onDelete('cascade') : c.notNull(),
    )
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addColumn('chain', 'text')
    .addColumn('seq', 'integer')
    .addColumn('prev_hash', 'text')
    .addColumn('hash', 'text')
    .execute();
  await sql.raw(`insert into case_read_audit_next (${COLUMNS}) select ${COLUMNS} from case_read_audit`).execute(db);
  await db.schema.dropTable('case_read_audit').execute();
  await db.schema.alterTable('case_read_audit_next').renameTo('case_read_audit').execute();
  await db.schema
    .createIndex('case_read_audit_case_idx')
    .on('case_read_audit')
    .columns(['case_id', 'read_at'])
    .execute();
  await db.schema
    .createIndex('case_read_audit_user_idx')
    .on('case_read_audit')
    .columns(['user_id', 'read_at'])
    .execute();
  await db.schema
    .createIndex('case_read_audit_chain_idx')
    .on('case_read_audit')
    .columns(['chain', 'seq'])
    .unique()
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    // The names PostgreSQL gave the inline references of 20261122_0310_board.
    await sql`alter table case_read_audit drop constraint if exists case_read_audit_case_id_fkey`.execute(db);
    await sql`alter table case_read_audit drop constraint if exists case_read_audit_user_id_fkey`.execute(db);
    return;
  }
  await rebuildOnSqlite(db, false);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    // Rows of cases or users deleted meanwhile would violate the references: they cannot come back.
    await sql`alter table case_read_audit add constraint case_read_audit_case_id_fkey foreign key (case_id) references cases (id) on delete cascade`.execute(
      db,
    );
    await sql`alter table case_read_audit add constraint case_read_audit_user_id_fkey foreign key (user_id) references users (id) on delete cascade`.execute(
      db,
    );
    return;
  }
  await rebuildOnSqlite(db, true);
}
