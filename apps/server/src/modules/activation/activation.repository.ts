/**
 * Team activation's rows: a hospital's teams with their members, and each activation with its members'
 * alerts and acknowledgements. Writes of an activation take the transaction the cases service opened
 * for its case event (`Executor`), so the event and the row commit together.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { TeamActivation, TeamKind } from '@inbound/contract';
import { fromFlag } from '../../db/json.js';
import type { DB } from '../../db/schema.js';
import type { TeamActivationMembersTable, TeamActivationsTable } from './activation.schema.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type ActivationRow = Selectable<TeamActivationsTable>;
export type ActivationMemberRow = Selectable<TeamActivationMembersTable>;

export interface TeamRecord {
  id: string;
  hospitalId: string;
  kind: TeamKind;
  name: string;
  members: { userId: string; name: string; backup: boolean }[];
}

export function toActivation(row: ActivationRow, members: readonly ActivationMemberRow[]): TeamActivation {
  return {
    _id: row.id,
    caseId: row.case_id,
    caseNumber: row.case_number,
    hospitalId: row.hospital_id,
    hospitalName: row.hospital_name,
    teamId: row.team_id,
    kind: row.kind as TeamKind,
    teamName: row.team_name,
    status: row.status === 'active' ? 'active' : 'stoodDown',
    activatedAt: row.activated_at,
    activatedByName: row.activated_by_name,
    alertRounds: Number(row.alert_rounds),
    escalatedAt: row.escalated_at,
    stoodDownAt: row.stood_down_at,
    stoodDownByName: row.stood_down_by_name,
    members: [...members]
      .sort((a, b) => Number(a.position) - Number(b.position))
      .map((m) => ({
        userId: m.user_id,
        name: m.name,
        backup: fromFlag(m.backup),
        alertedAt: m.alerted_at,
        acknowledgedAt: m.acknowledged_at,
      })),
  };
}

export function createActivationRepository(db: Kysely<DB>) {
  async function membersOf(activationIds: readonly string[], executor: Executor = db) {
    if (activationIds.length === 0) return new Map<string, ActivationMemberRow[]>();
    const rows = await executor
      .selectFrom('team_activation_members')
      .selectAll()
      .where('activation_id', 'in', [...activationIds])
      .execute();
    const byActivation = new Map<string, ActivationMemberRow[]>();
    for (const row of rows) byActivation.set(row.activation_id, [...(byActivation.get(row.activation_id) ?? []), row]);
    return byActivation;
  }

  async function withMembers(rows: readonly ActivationRow[], executor: Executor = db): Promise<TeamActivation[]> {
    const members = await membersOf(
      rows.map((r) => r.id),
      executor,
    );
    return rows.map((row) => toActivation(row, members.get(row.id) ?? []));
  }

  return {
    // ---- teams -------------------------------------------------------------------------------
    async teams(hospitalId: string): Promise<TeamRecord[]> {
      const teams = await db
        .selectFrom('hospital_teams')
        .selectAll()
        .where('hospital_id', '=', hospitalId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      if (teams.length === 0) return [];
      const members = await db
        .selectFrom('hospital_team_members')
        .innerJoin('users', 'users.id', 'hospital_team_members.user_id')
        .select([
          'hospital_team_members.team_id',
          'hospital_team_members.user_id',
          'hospital_team_members.backup',
          'users.display_name',
        ])
        .where(
          'hospital_team_members.team_id',
          'in',
          teams.map((t) => t.id),
        )
        .orderBy('hospital_team_members.position')
        .execute();
      return teams.map((t) => ({
        id: t.id,
        hospitalId: t.hospital_id,
        kind: t.kind as TeamKind,
        name: t.name,
        members: members
          .filter((m) => m.team_id === t.id)
          .map((m) => ({ userId: m.user_id, name: m.display_name, backup: fromFlag(m.backup) })),
      }));
    },

    /** The hospital's ED staff (who may be a team member), by name. */
    async staff(hospitalId: string): Promise<{ userId: string; name: string }[]> {
      const rows = await db
        .selectFrom('hospital_staff')
        .innerJoin('users', 'users.id', 'hospital_staff.user_id')
        .select(['users.id', 'users.display_name'])
        .where('hospital_staff.hospital_id', '=', hospitalId)
        .where('users.disabled', '=', 0)
        .orderBy('users.display_name')
        .execute();
      return rows.map((r) => ({ userId: r.id, name: r.display_name }));
    },

    async saveTeam(
      team: { id: string; hospitalId: string; kind: TeamKind; name: string; now: string; isNew: boolean },
      members: readonly { userId: string; backup: boolean }[],
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (team.isNew) {
          await trx
            .insertInto('hospital_teams')
            .values({
              id: team.id,
              hospital_id: team.hospitalId,
              kind: team.kind,
              name: team.name,
              created_at: team.now,
              updated_at: team.now,
            })
            .execute();
        } else {
          const updated = await trx
            .updateTable('hospital_teams')
            .set({ kind: team.kind, name: team.name, updated_at: team.now })
            .where('id', '=', team.id)
            .where('hospital_id', '=', team.hospitalId)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) return false;
          await trx.deleteFrom('hospital_team_members').where('team_id', '=', team.id).execute();
        }
        await trx
          .insertInto('hospital_team_members')
          .values(
            members.map((m, position) => ({ team_id: team.id, user_id: m.userId, backup: m.backup ? 1 : 0, position })),
          )
          .execute();
        return true;
      });
    },

    async deleteTeam(hospitalId: string, teamId: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('hospital_teams')
        .where('id', '=', teamId)
        .where('hospital_id', '=', hospitalId)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    // ---- activations -------------------------------------------------------------------------
    withMembers,

    async find(activationId: string, executor: Executor = db): Promise<TeamActivation | null> {
      const row = await executor
        .selectFrom('team_activations')
        .selectAll()
        .where('id', '=', activationId)
        .executeTakeFirst();
      return row ? ((await withMembers([row], executor))[0] ?? null) : null;
    },

    async ofCase(caseId: string, hospitalId: string | null, executor: Executor = db): Promise<TeamActivation[]> {
      let query = executor.selectFrom('team_activations').selectAll().where('case_id', '=', caseId);
      if (hospitalId) query = query.where('hospital_id', '=', hospitalId);
      return withMembers(await query.orderBy('activated_at').orderBy('id').execute(), executor);
    },

    /** The hospital's activations since `since` (the board's window), under way or stood down. */
    async ofHospital(hospitalId: string, since: string): Promise<TeamActivation[]> {
      const rows = await db
        .selectFrom('team_activations')
        .selectAll()
        .where('hospital_id', '=', hospitalId)
        .where('activated_at', '>=', since)
        .orderBy('activated_at')
        .limit(500)
        .execute();
      return withMembers(rows);
    },

    /** Activations under way that alerted the user and that the user has not acknowledged. */
    async waitingFor(userId: string): Promise<TeamActivation[]> {
      const rows = await db
        .selectFrom('team_activations')
        .innerJoin('team_activation_members as m', 'm.activation_id', 'team_activations.id')
        .selectAll('team_activations')
        .where('m.user_id', '=', userId)
        .where('m.alerted_at', 'is not', null)
        .where('m.acknowledged_at', 'is', null)
        .where('team_activations.status', '=', 'active')
        .orderBy('team_activations.activated_at')
        .limit(100)
        .execute();
      return withMembers(rows);
    },

    async insert(trx: Transaction<DB>, row: ActivationRow, members: readonly ActivationMemberRow[]): Promise<void> {
      await trx.insertInto('team_activations').values(row).execute();
      await trx
        .insertInto('team_activation_members')
        .values([...members])
        .execute();
    },

    async update(
      trx: Transaction<DB>,
      activationId: string,
      set: Partial<Omit<ActivationRow, 'id' | 'case_id'>>,
    ): Promise<void> {
      await trx.updateTable('team_activations').set(set).where('id', '=', activationId).execute();
    },

    async markMembers(
      trx: Transaction<DB>,
      activationId: string,
      userIds: readonly string[],
      set: { alerted_at?: string; acknowledged_at?: string },
    ): Promise<void> {
      if (userIds.length === 0) return;
      await trx
        .updateTable('team_activation_members')
        .set(set)
        .where('activation_id', '=', activationId)
        .where('user_id', 'in', [...userIds])
        .execute();
    },

    async nextAlertAt(trx: Transaction<DB>, activationId: string): Promise<string | null> {
      const row = await trx
        .selectFrom('team_activations')
        .select('next_alert_at')
        .where('id', '=', activationId)
        .executeTakeFirst();
      return row?.next_alert_at ?? null;
    },

    /** Ends an activation's schedule outside a case transaction (its case went to another hospital). */
    async stopSchedule(activationId: string): Promise<void> {
      await db.updateTable('team_activations').set({ next_alert_at: null }).where('id', '=', activationId).execute();
    },

    /** Activations whose next re-alert or escalation is due: the scheduler's work list. */
    async due(now: string, limit: number): Promise<{ id: string; case_id: string; hospital_id: string }[]> {
      return db
        .selectFrom('team_activations')
        .select(['id', 'case_id', 'hospital_id'])
        .where('status', '=', 'active')
        .where('next_alert_at', 'is not', null)
        .where('next_alert_at', '<=', now)
        .orderBy('next_alert_at')
        .limit(limit)
        .execute();
    },
  };
}

export type ActivationRepository = ReturnType<typeof createActivationRepository>;
