/**
 * Dispatch cancel (issue 15 item 6): a dispatch nobody claimed yet can be cancelled by the hospital;
 * its emsDispatch broadcast is marked too, so the crews' Message Center shows it cancelled.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('case_dispatches').addColumn('cancelled_at', 'text').execute();
  await db.schema.alterTable('case_dispatches').addColumn('cancelled_by_name', 'text').execute();
  await db.schema.alterTable('broadcasts').addColumn('cancelled_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('broadcasts').dropColumn('cancelled_at').execute();
  await db.schema.alterTable('case_dispatches').dropColumn('cancelled_by_name').execute();
  await db.schema.alterTable('case_dispatches').dropColumn('cancelled_at').execute();
}
