/**
 * Security (issue 17). Sign-in throttling per account and per account × address, with the time of the
 * last failure (the growing delay is measured from it), and the addresses each account signed in from
 * successfully (a known pair is never locked out by someone else's guessing); when an administrator's
 * one-time password expires. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  // An administrator's one-time password stops working when unused for ONE_TIME_PASSWORD_LIFETIME.
  await db.schema.alterTable('users').addColumn('one_time_password_expires_at', 'text').execute();
  await db.schema.alterTable('sign_in_throttle').addColumn('last_failed_at', 'text').execute();
  await db.schema
    .createTable('known_sign_ins')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('last_signed_in_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_sign_ins_pk', ['user_id', 'address'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('known_sign_ins').ifExists().execute();
  await db.schema.alterTable('sign_in_throttle').dropColumn('last_failed_at').execute();
  await db.schema.alterTable('users').dropColumn('one_time_password_expires_at').execute();
}
