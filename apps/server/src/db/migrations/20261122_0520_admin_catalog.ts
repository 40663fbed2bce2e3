/**
 * Administration of the catalogue: a truck that past cases name cannot be deleted (cases refer to it),
 * so removing it retires it — `retired_at` set, gone from the crews' truck list, still named on the
 * cases that used it. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('trucks').addColumn('retired_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('trucks').dropColumn('retired_at').execute();
}
