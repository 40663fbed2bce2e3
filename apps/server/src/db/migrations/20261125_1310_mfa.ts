/**
 * MFA (issue 17): a TOTP secret per user (pending until the first code confirms it; the last accepted
 * time step, so a code is not accepted twice), argon2id hashes of one-time recovery codes, the moment a
 * session passed the second factor, and the organisation's settings (which roles must use MFA).
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enrolled_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema.alterTable('sessions').addColumn('mfa_at', 'text').execute();
  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('mfa_recovery_codes_user_idx').on('mfa_recovery_codes').column('user_id').execute();
  await db.schema
    .createTable('org_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('org_settings').ifExists().execute();
  await db.schema.dropTable('mfa_recovery_codes').ifExists().execute();
  await db.schema.alterTable('sessions').dropColumn('mfa_at').execute();
  for (const column of ['totp_last_step', 'totp_enrolled_at', 'totp_pending_secret', 'totp_secret'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
