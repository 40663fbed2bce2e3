/**
 * WebAuthn as a second factor (issue 17; decision 0032): a user's authenticators (several, named; the
 * public key and the signature counter), and the challenges the server handed out — stored in the
 * database so any worker can check the answer, single-use (deleted when used) and short-lived.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webauthn_credentials')
    /** The credential id, base64url, as the authenticator gave it. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** COSE public key, base64url. */
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull())
    /** JSON: AuthenticatorTransport[] */
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('webauthn_credentials_user_idx').on('webauthn_credentials').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** register | signIn */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expiry_idx')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').ifExists().execute();
  await db.schema.dropTable('webauthn_credentials').ifExists().execute();
}
