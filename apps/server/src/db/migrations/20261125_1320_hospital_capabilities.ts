/** Hospital capabilities for the crew's destination advice (issue 15 item 5): stroke centre, PCI, trauma level. */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('hospitals').addColumn('stroke_center', 'text').execute();
  await db.schema
    .alterTable('hospitals')
    .addColumn('pci', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('hospitals').addColumn('trauma_level', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('hospitals').dropColumn('trauma_level').execute();
  await db.schema.alterTable('hospitals').dropColumn('pci').execute();
  await db.schema.alterTable('hospitals').dropColumn('stroke_center').execute();
}
