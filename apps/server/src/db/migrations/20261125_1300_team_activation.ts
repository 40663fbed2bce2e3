/**
 * Team activation (issue 15 item 1): a hospital's teams and their members, and each activation of a
 * team for a case with every member's alert and acknowledgement. `next_alert_at` is the scheduler's
 * state: the next re-alert or escalation is found in the database, so it survives a restart and any
 * server process may run it. Portable types only.
 */
import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('hospital_teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hospital_id', 'text', (c) => c.notNull().references('hospitals.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hospital_teams_hospital_idx').on('hospital_teams').column('hospital_id').execute();
  await db.schema
    .createTable('hospital_team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('hospital_teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('backup', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('hospital_team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('team_activations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('case_id', 'text', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('case_number', 'text', (c) => c.notNull())
    .addColumn('hospital_id', 'text', (c) => c.notNull())
    .addColumn('hospital_name', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('team_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('activated_at', 'text', (c) => c.notNull())
    .addColumn('activated_by_name', 'text', (c) => c.notNull())
    .addColumn('alert_rounds', 'integer', (c) => c.notNull())
    .addColumn('escalated_at', 'text')
    .addColumn('stood_down_at', 'text')
    .addColumn('stood_down_by_name', 'text')
    .addColumn('next_alert_at', 'text')
    .execute();
  await db.schema.createIndex('team_activations_case_idx').on('team_activations').column('case_id').execute();
  await db.schema
    .createIndex('team_activations_hospital_idx')
    .on('team_activations')
    .columns(['hospital_id', 'activated_at'])
    .execute();
  await db.schema.createIndex('team_activations_due_idx').on('team_activations').column('next_alert_at').execute();
  await db.schema
    .createTable('team_activation_members')
    .addColumn('activation_id', 'text', (c) => c.notNull().references('team_activations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('backup', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('alerted_at', 'text')
    .addColumn('acknowledged_at', 'text')
    .addPrimaryKeyConstraint('team_activation_members_pk', ['activation_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('team_activation_members_user_idx')
    .on('team_activation_members')
    .column('user_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('team_activation_members').ifExists().execute();
  await db.schema.dropTable('team_activations').ifExists().execute();
  await db.schema.dropTable('hospital_team_members').ifExists().execute();
  await db.schema.dropTable('hospital_teams').ifExists().execute();
}
