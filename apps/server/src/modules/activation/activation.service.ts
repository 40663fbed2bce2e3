/**
 * Team activation (issue 15 item 1; contract: activation.ts).
 *
 * Teams: an organisation admin defines a hospital's teams; members must be on its ED staff list. ED
 * staff of the hospital and org admins read them.
 *
 * Activations: the destination's ED staff activate a team for an inbound case. Every step — activated,
 * a member's "on my way", a re-alert, the escalation to backups, stand down — is a case event recorded
 * through the cases service (`recordAtDestination`: under the case's row lock, with the activation's
 * own rows in the same transaction, announced by the case outbox after the commit). After the commit
 * the members being alerted get a `team.alert` on their `user:{id}` channel (every console they have
 * open) and a Web Push (their phone), even when a socket is open.
 *
 * The schedule lives in the row (`next_alert_at`), so it survives a restart and any process may run
 * it: `tick()` (called by app.ts every few seconds, by tests with a clock they move) takes the due
 * activations; under the case's row lock it checks the activation is still due, so two processes never
 * alert the same round twice. Rounds fall at activation + k × 2 min: each alerts the members already
 * alerted who have not acknowledged; at 20 min, if a primary member has still not acknowledged, the
 * backups are alerted too (escalation) and the re-alerts go on for 20 more minutes; without backups,
 * or once nobody is left to alert, the schedule ends.
 */
import { randomUUID } from 'node:crypto';
import {
  ACTIVATION_ALERT_END_MS,
  ACTIVATION_ESCALATE_MS,
  ACTIVATION_REALERT_MS,
  activationMessages,
  BOARD_HISTORY_HOURS,
  TEAM_KIND_NAMES,
  USER_CHANNEL_EVENTS,
  type ActivationsResponse,
  type Hospital,
  type HospitalTeam,
  type TeamActivation,
  type TeamAlert,
  type TeamsResponse,
  TeamBody,
} from '@inbound/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { CasesService } from '../cases/cases.service.js';
import type { PushService } from '../push/push.service.js';
import { publishMessage } from '../realtime/channel-messages.js';
import type { RealtimePublisher } from '../realtime/publisher.js';
import type { ActivationRepository, TeamRecord } from './activation.repository.js';

type TeamInput = z.output<typeof TeamBody>;

/** How many due activations one tick handles (the rest wait for the next tick). */
const TICK_BATCH = 50;

export interface ActivationServiceDeps {
  repo: ActivationRepository;
  clock: Clock;
  access: Pick<CaseAccess, 'requireHospitalStaff' | 'requireInbound' | 'requireReader'>;
  cases: Pick<CasesService, 'recordAtDestination'>;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
  publisher: RealtimePublisher;
  push: Pick<PushService, 'notify'>;
  displayName(userId: string): Promise<string | null>;
  /** A failed alert delivery (never with who or which case). */
  onError?: (error: unknown) => void;
  newId?: () => string;
}

const toTeam = (t: TeamRecord): HospitalTeam => ({
  _id: t.id,
  hospitalId: t.hospitalId,
  kind: t.kind,
  name: t.name,
  members: t.members,
});

export function createActivationService(deps: ActivationServiceDeps) {
  const { repo, clock, access, cases } = deps;
  const newId = deps.newId ?? randomUUID;

  async function requireHospital(hospitalId: string): Promise<Hospital> {
    const [hospital] = await deps.hospitals.hospitalsByIds([hospitalId]);
    if (!hospital) throw notFound('Hospital');
    return hospital;
  }

  /** ED staff of the hospital, or an org admin (who manages it). */
  async function requireTeamReader(principal: Principal, hospitalId: string): Promise<void> {
    if (isOrgAdmin(principal)) await requireHospital(hospitalId);
    else await access.requireHospitalStaff(principal, hospitalId);
  }

  async function requireTeamAdmin(principal: Principal, hospitalId: string): Promise<void> {
    if (!isOrgAdmin(principal)) throw forbidden();
    await requireHospital(hospitalId);
  }

  async function checkMembers(hospitalId: string, body: TeamInput): Promise<void> {
    const staff = new Set((await repo.staff(hospitalId)).map((s) => s.userId));
    const outsider = body.members.find((m) => !staff.has(m.userId));
    if (outsider) {
      const name = (await deps.displayName(outsider.userId)) ?? outsider.userId;
      throw badRequest(activationMessages.memberNotStaff(name));
    }
    if (!body.members.some((m) => !m.backup)) throw badRequest('members: a team needs a member who is not a backup.');
  }

  async function findTeam(hospitalId: string, teamId: string): Promise<TeamRecord> {
    const team = (await repo.teams(hospitalId)).find((t) => t.id === teamId);
    if (!team) throw notFound('Team');
    return team;
  }

  /** Tells the members' consoles (their user channels) of an alert, or that the activation is over. */
  function tellConsoles(activation: TeamActivation, userIds: readonly string[], reason: TeamAlert['reason']): void {
    const message = { type: USER_CHANNEL_EVENTS.teamAlert, data: { activation, reason } } as const;
    for (const userId of userIds) {
      publishMessage(deps.publisher, 'user', userId, message).catch((error: unknown) => deps.onError?.(error));
    }
  }

  /** Tells the members being alerted: their consoles (user channel) and their phones (Web Push). */
  function alert(activation: TeamActivation, userIds: readonly string[], reason: TeamAlert['reason']): void {
    if (userIds.length === 0) return;
    tellConsoles(activation, userIds, reason);
    const title = `${activation.teamName} team activated`;
    deps.push.notify(
      userIds,
      (userId) => [`user-${userId}`],
      {
        type: 'team.alert',
        title: reason === 'activated' ? title : `${title} — please answer`,
        // The case number and hospital only: nothing about the patient on a lock screen.
        body: `Case ${activation.caseNumber} to ${activation.hospitalName}. Tap to answer "${activationMessages.onMyWay}".`,
        // A tap opens the case (members are ED staff of its hospital); the bar there has "On my way".
        url: `/hospital/case/${activation.hospitalId}/${activation.caseId}`,
        caseId: activation.caseId,
        transferId: null,
      },
      { always: true },
    );
  }

  /** The next scheduled round after round `rounds` (1 = the activation itself), or null: stop. */
  function nextAlertAt(activatedAt: string, rounds: number, escalated: boolean, hasBackups: boolean): string | null {
    const offset = rounds * ACTIVATION_REALERT_MS;
    const end = escalated ? ACTIVATION_ALERT_END_MS : hasBackups ? ACTIVATION_ESCALATE_MS : ACTIVATION_ESCALATE_MS - 1;
    if (offset > end) return null;
    return new Date(Date.parse(activatedAt) + offset).toISOString();
  }

  /** One due round of one activation, under its case's lock; what to alert after the commit. */
  async function runRound(due: { id: string; case_id: string; hospital_id: string }) {
    const outcome = await cases.recordAtDestination(
      { caseId: due.case_id, hospitalId: due.hospital_id, actorUserId: null },
      async (trx, _current, emit, now) => {
        const activation = await repo.find(due.id, trx);
        const row = activation?.status === 'active' ? activation : null;
        const scheduled = row ? await repo.nextAlertAt(trx, due.id) : null;
        // Another process ran this round first, or it was stood down meanwhile.
        if (!row || scheduled === null || scheduled > now) return 'skip' as const;
        const elapsed = Date.parse(now) - Date.parse(row.activatedAt);
        const waiting = (m: TeamActivation['members'][number]) => m.acknowledgedAt === null;
        const primariesWaiting = row.members.filter((m) => !m.backup && waiting(m));
        const backups = row.members.filter((m) => m.backup);
        let reason: TeamAlert['reason'] = 'realert';
        let targets = row.members.filter((m) => m.alertedAt !== null && waiting(m));
        let escalatedAt = row.escalatedAt;
        if (row.escalatedAt === null && elapsed >= ACTIVATION_ESCALATE_MS && primariesWaiting.length > 0) {
          const newBackups = backups.filter((m) => m.alertedAt === null && waiting(m));
          if (newBackups.length > 0) {
            reason = 'escalated';
            escalatedAt = now;
            await repo.markMembers(
              trx,
              row._id,
              newBackups.map((m) => m.userId),
              { alerted_at: now },
            );
            await emit('teamEscalated', {
              activationId: row._id,
              kind: row.kind,
              backups: newBackups.map((m) => ({ userId: m.userId, name: m.name, backup: true })),
            });
            targets = [...targets, ...newBackups];
          }
        }
        const rounds = row.alertRounds + (targets.length > 0 ? 1 : 0);
        if (targets.length > 0 && reason === 'realert') {
          await emit('teamRealerted', {
            activationId: row._id,
            kind: row.kind,
            round: rounds,
            userIds: targets.map((m) => m.userId),
          });
        }
        // Nobody left to alert: the schedule ends (a later acknowledgement needs none).
        const next =
          targets.length === 0
            ? null
            : nextAlertAt(
                row.activatedAt,
                rounds,
                escalatedAt !== null,
                backups.some((m) => m.alertedAt === null),
              );
        await repo.update(trx, row._id, { alert_rounds: rounds, escalated_at: escalatedAt, next_alert_at: next });
        const after = (await repo.find(row._id, trx)) ?? row;
        return { activation: after, userIds: targets.map((m) => m.userId), reason };
      },
    );
    if (outcome === null) {
      // The case went elsewhere (or is gone): nothing more to alert for it here.
      await repo.stopSchedule(due.id);
      return;
    }
    if (outcome !== 'skip') alert(outcome.activation, outcome.userIds, outcome.reason);
  }

  return {
    // ---- teams (admin) -------------------------------------------------------------------------
    async teams(principal: Principal, hospitalId: string): Promise<TeamsResponse> {
      await requireTeamReader(principal, hospitalId);
      const [teams, staff] = await Promise.all([repo.teams(hospitalId), repo.staff(hospitalId)]);
      return { data: teams.map(toTeam), staff };
    },

    async createTeam(principal: Principal, hospitalId: string, body: TeamInput): Promise<HospitalTeam> {
      await requireTeamAdmin(principal, hospitalId);
      await checkMembers(hospitalId, body);
      const id = newId();
      await repo.saveTeam(
        { id, hospitalId, kind: body.kind, name: body.name, now: clock.now().toISOString(), isNew: true },
        body.members,
      );
      return toTeam(await findTeam(hospitalId, id));
    },

    async updateTeam(principal: Principal, hospitalId: string, teamId: string, body: TeamInput): Promise<HospitalTeam> {
      await requireTeamAdmin(principal, hospitalId);
      await checkMembers(hospitalId, body);
      const saved = await repo.saveTeam(
        { id: teamId, hospitalId, kind: body.kind, name: body.name, now: clock.now().toISOString(), isNew: false },
        body.members,
      );
      if (!saved) throw notFound('Team');
      return toTeam(await findTeam(hospitalId, teamId));
    },

    async deleteTeam(principal: Principal, hospitalId: string, teamId: string): Promise<void> {
      await requireTeamAdmin(principal, hospitalId);
      if (!(await repo.deleteTeam(hospitalId, teamId))) throw notFound('Team');
    },

    // ---- activations ---------------------------------------------------------------------------
    async hospitalActivations(principal: Principal, hospitalId: string): Promise<ActivationsResponse> {
      await access.requireHospitalStaff(principal, hospitalId);
      const since = new Date(clock.now().getTime() - BOARD_HISTORY_HOURS * 3_600_000).toISOString();
      return { data: await repo.ofHospital(hospitalId, since) };
    },

    async caseActivations(principal: Principal, hospitalId: string, caseId: string): Promise<ActivationsResponse> {
      await access.requireInbound(principal, hospitalId, caseId);
      return { data: await repo.ofCase(caseId, hospitalId) };
    },

    /** The crews of the case: the activations at its current destination. */
    async crewActivations(principal: Principal, caseId: string): Promise<ActivationsResponse> {
      const { row } = await access.requireReader(principal, caseId);
      const hospitalId = row.destination_hospital_id;
      return { data: hospitalId ? await repo.ofCase(caseId, hospitalId) : [] };
    },

    async mine(principal: Principal): Promise<ActivationsResponse> {
      return { data: await repo.waitingFor(principal.userId) };
    },

    /** Activates the team for the case and alerts its (primary) members; an activation under way is answered as it is. */
    async activate(principal: Principal, hospitalId: string, caseId: string, teamId: string): Promise<TeamActivation> {
      const { hospital } = await access.requireInbound(principal, hospitalId, caseId);
      const team = await findTeam(hospitalId, teamId);
      const byName = (await deps.displayName(principal.userId)) ?? principal.username;
      const outcome = await cases.recordAtDestination(
        { caseId, hospitalId, actorUserId: principal.userId },
        async (trx, current, emit, now) => {
          const existing = (await repo.ofCase(caseId, hospitalId, trx)).find(
            (a) => a.teamId === teamId && a.status === 'active',
          );
          if (existing) return { activation: existing, fresh: false };
          const id = newId();
          const hasBackups = team.members.some((m) => m.backup);
          await repo.insert(
            trx,
            {
              id,
              case_id: caseId,
              case_number: current.case_number,
              hospital_id: hospitalId,
              hospital_name: hospital.name,
              team_id: team.id,
              kind: team.kind,
              team_name: team.name || TEAM_KIND_NAMES[team.kind],
              status: 'active',
              activated_at: now,
              activated_by_name: byName,
              alert_rounds: 1,
              escalated_at: null,
              stood_down_at: null,
              stood_down_by_name: null,
              next_alert_at: nextAlertAt(now, 1, false, hasBackups),
            },
            team.members.map((m, position) => ({
              activation_id: id,
              user_id: m.userId,
              name: m.name,
              backup: m.backup ? 1 : 0,
              position,
              alerted_at: m.backup ? null : now,
              acknowledged_at: null,
            })),
          );
          await emit('teamActivated', {
            activationId: id,
            hospitalId,
            teamId: team.id,
            kind: team.kind,
            teamName: team.name,
            byName,
            members: team.members,
          });
          const activation = await repo.find(id, trx);
          if (!activation) throw new Error('activation not stored');
          return { activation, fresh: true };
        },
      );
      if (!outcome) throw notFound('Case');
      if (outcome.fresh) {
        alert(
          outcome.activation,
          outcome.activation.members.filter((m) => !m.backup).map((m) => m.userId),
          'activated',
        );
      }
      return outcome.activation;
    },

    /** Ends the activation: no more alerts; members' consoles drop it. Idempotent. */
    async standDown(
      principal: Principal,
      hospitalId: string,
      caseId: string,
      activationId: string,
    ): Promise<TeamActivation> {
      await access.requireInbound(principal, hospitalId, caseId);
      const byName = (await deps.displayName(principal.userId)) ?? principal.username;
      const outcome = await cases.recordAtDestination(
        { caseId, hospitalId, actorUserId: principal.userId },
        async (trx, _current, emit, now) => {
          const activation = await repo.find(activationId, trx);
          if (activation?.caseId !== caseId || activation.hospitalId !== hospitalId) return 'missing' as const;
          if (activation.status !== 'active') return { activation, fresh: false };
          await repo.update(trx, activationId, {
            status: 'stoodDown',
            stood_down_at: now,
            stood_down_by_name: byName,
            next_alert_at: null,
          });
          await emit('teamStoodDown', {
            activationId,
            kind: activation.kind,
            teamName: activation.teamName,
            byName,
          });
          return { activation: (await repo.find(activationId, trx)) ?? activation, fresh: true };
        },
      );
      if (outcome === null || outcome === 'missing') throw notFound('Activation');
      // The alerted members' bars drop it at once (the case event reaches only the case's subscribers).
      if (outcome.fresh) {
        const alerted = outcome.activation.members.filter((m) => m.alertedAt !== null).map((m) => m.userId);
        tellConsoles(outcome.activation, alerted, 'stoodDown');
      }
      return outcome.activation;
    },

    /** A member's "on my way". Repeats answer the activation as it is. */
    async acknowledge(principal: Principal, activationId: string): Promise<TeamActivation> {
      const found = await repo.find(activationId);
      if (!found) throw notFound('Activation');
      if (!found.members.some((m) => m.userId === principal.userId)) throw forbidden(activationMessages.notAMember);
      const outcome = await cases.recordAtDestination(
        { caseId: found.caseId, hospitalId: found.hospitalId, actorUserId: principal.userId },
        async (trx, _current, emit, now) => {
          const activation = await repo.find(activationId, trx);
          const member = activation?.members.find((m) => m.userId === principal.userId);
          if (!activation || !member) return null;
          if (member.acknowledgedAt !== null) return activation;
          if (activation.status !== 'active') throw conflict('This activation was stood down.');
          await repo.markMembers(trx, activationId, [principal.userId], {
            acknowledged_at: now,
            ...(member.alertedAt === null ? { alerted_at: now } : {}),
          });
          await emit('teamAcknowledged', {
            activationId,
            kind: activation.kind,
            teamName: activation.teamName,
            userId: member.userId,
            name: member.name,
            backup: member.backup,
          });
          return (await repo.find(activationId, trx)) ?? activation;
        },
      );
      if (!outcome) throw conflict('The case is no longer coming to this hospital.');
      return outcome;
    },

    /** Runs every round that is due now (re-alerts, escalations). Safe to call from every process. */
    async tick(): Promise<number> {
      const due = await repo.due(clock.now().toISOString(), TICK_BATCH);
      for (const item of due) {
        try {
          await runRound(item);
        } catch (error) {
          deps.onError?.(error);
        }
      }
      return due.length;
    },
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;
