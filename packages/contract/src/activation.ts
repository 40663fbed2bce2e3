/**
 * Team activation (issue 15 item 1): a hospital's admin defines its teams (Stroke, STEMI, Trauma,
 * Sepsis, Pediatric — members are console users on its ED staff list, some of them backups); from an
 * inbound case the ED activates a team; every member is alerted (Web Push and every console they have
 * open) and answers "on my way"; the case detail and the crew see who acknowledged and when. An
 * activation left unacknowledged is re-alerted every ACTIVATION_REALERT_MS and, after
 * ACTIVATION_ESCALATE_MS, escalated to the team's backups; stand down ends it. Every step is a case
 * event (case-events.ts: teamActivated, teamAcknowledged, teamRealerted, teamEscalated, teamStoodDown).
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { Id } from './entities.js';

/** The case events of team activation (case-events.ts), so clients can tell them from the others. */
export const ACTIVATION_CASE_EVENTS = [
  'teamActivated',
  'teamAcknowledged',
  'teamRealerted',
  'teamEscalated',
  'teamStoodDown',
] as const;

export const TEAM_KINDS = ['stroke', 'stemi', 'trauma', 'sepsis', 'pediatric'] as const;
export const TeamKind = z.enum(TEAM_KINDS);
export type TeamKind = z.infer<typeof TeamKind>;

/** The name a team of each kind has unless its admin names it otherwise. */
export const TEAM_KIND_NAMES: Record<TeamKind, string> = {
  stroke: 'Stroke',
  stemi: 'STEMI',
  trauma: 'Trauma',
  sepsis: 'Sepsis',
  pediatric: 'Pediatric',
};

/** Re-alert the members who have not acknowledged this often … */
export const ACTIVATION_REALERT_MS = 2 * 60_000;
/** … and after this long without every (primary) member's acknowledgement, alert the backups too. */
export const ACTIVATION_ESCALATE_MS = 20 * 60_000;
/** After escalation the backups are re-alerted for as long again; then the server stops alerting. */
export const ACTIVATION_ALERT_END_MS = 2 * ACTIVATION_ESCALATE_MS;
export const TEAM_MEMBERS_MAX = 50;
export const TEAM_NAME_MAX_LENGTH = 60;

export const activationMessages = {
  onMyWay: 'On my way',
  notAMember: 'You are not a member of this activation.',
  alreadyActive: 'This team is already activated for this case.',
  standDown: 'Stand down',
  memberNotStaff: (name: string) => `members: ${name} is not on this hospital's ED staff list.`,
} as const;

export const TeamMember = z.object({ userId: Id, name: z.string(), backup: z.boolean() });
export type TeamMember = z.infer<typeof TeamMember>;

export const HospitalTeam = z.object({
  _id: Id,
  hospitalId: Id,
  kind: TeamKind,
  name: z.string(),
  members: z.array(TeamMember),
});
export type HospitalTeam = z.infer<typeof HospitalTeam>;

export const TeamsResponse = z.object({
  data: z.array(HospitalTeam),
  /** The hospital's ED staff: who may be a member (the admin's picker). */
  staff: z.array(z.object({ userId: Id, name: z.string() })),
});
export type TeamsResponse = z.infer<typeof TeamsResponse>;

export const TeamBody = z.object({
  kind: TeamKind,
  name: z.string().trim().min(1, 'name is required').max(TEAM_NAME_MAX_LENGTH),
  members: z
    .array(z.object({ userId: Id, backup: z.boolean().default(false) }))
    .min(1, 'members: a team needs at least one member')
    .max(TEAM_MEMBERS_MAX)
    .refine((m) => new Set(m.map((x) => x.userId)).size === m.length, 'members: a person is listed twice'),
});
export type TeamBody = z.input<typeof TeamBody>;

export const HospitalTeamsParams = z.object({ id: Id });
export const TeamItemParams = z.object({ id: Id, teamId: Id });

export const ActivationStatus = z.enum(['active', 'stoodDown']);

export const ActivationMember = TeamMember.extend({
  /** When the member was first alerted (backups: at escalation); null: not alerted yet. */
  alertedAt: z.iso.datetime().nullable(),
  acknowledgedAt: z.iso.datetime().nullable(),
});
export type ActivationMember = z.infer<typeof ActivationMember>;

export const TeamActivation = z.object({
  _id: Id,
  caseId: Id,
  caseNumber: z.string(),
  hospitalId: Id,
  hospitalName: z.string(),
  teamId: Id,
  kind: TeamKind,
  teamName: z.string(),
  status: ActivationStatus,
  activatedAt: z.iso.datetime(),
  activatedByName: z.string(),
  /** How many alert rounds went out (1 = the activation itself). */
  alertRounds: z.number().int(),
  escalatedAt: z.iso.datetime().nullable(),
  stoodDownAt: z.iso.datetime().nullable(),
  stoodDownByName: z.string().nullable(),
  members: z.array(ActivationMember),
});
export type TeamActivation = z.infer<typeof TeamActivation>;

export const ActivationsResponse = z.object({ data: z.array(TeamActivation) });
export type ActivationsResponse = z.infer<typeof ActivationsResponse>;

export const ActivateTeamBody = z.object({ teamId: Id });
export const ActivationCaseParams = z.object({ id: Id, caseId: Id });
export const ActivationItemParams = z.object({ id: Id, caseId: Id, activationId: Id });
export const ActivationParams = z.object({ activationId: Id });
export const CaseActivationsParams = z.object({ id: Id });

/**
 * On `user:{id}`: the member is alerted (first alert, re-alert or escalation); a charge nurse is
 * alerted of a truck waiting past the offload threshold (charge-nurse.ts).
 */
export const USER_CHANNEL_EVENTS = { teamAlert: 'team.alert', offloadAlert: 'offload.alert' } as const;
export const TeamAlert = z.object({
  activation: TeamActivation,
  /** `stoodDown`: no alert — the consoles drop the activation from their bars (no sound, no push). */
  reason: z.enum(['activated', 'realert', 'escalated', 'stoodDown']),
});
export type TeamAlert = z.infer<typeof TeamAlert>;

export const activationRoutes = {
  hospitalTeams: {
    method: 'GET',
    path: '/v4/hospitals/:id/teams',
    summary: "The hospital's teams and the ED staff who may be members (its ED staff, org admins)",
    auth: true,
    params: HospitalTeamsParams,
    response: TeamsResponse,
  },
  createTeam: {
    method: 'POST',
    path: '/v4/hospitals/:id/teams',
    summary: 'An org admin defines a team of the hospital (kind, name, members and backups)',
    auth: true,
    params: HospitalTeamsParams,
    body: TeamBody,
    response: HospitalTeam,
  },
  updateTeam: {
    method: 'PUT',
    path: '/v4/hospitals/:id/teams/:teamId',
    summary: 'An org admin changes a team (activations under way keep the members they alerted)',
    auth: true,
    params: TeamItemParams,
    body: TeamBody,
    response: HospitalTeam,
  },
  deleteTeam: {
    method: 'DELETE',
    path: '/v4/hospitals/:id/teams/:teamId',
    summary: 'An org admin removes a team',
    auth: true,
    params: TeamItemParams,
    response: null,
  },
  hospitalActivations: {
    method: 'GET',
    path: '/v4/hospitals/:id/activations',
    summary: "The hospital's activations of the board's window, under way or stood down (its ED staff)",
    auth: true,
    params: HospitalTeamsParams,
    response: ActivationsResponse,
  },
  caseActivations: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound/:caseId/activations',
    summary: "An inbound case's team activations, with who acknowledged and when (destination ED staff)",
    auth: true,
    params: ActivationCaseParams,
    response: ActivationsResponse,
  },
  activateTeam: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/activations',
    summary: 'The destination ED activates a team for the case; every member is alerted (repeats answer the first)',
    auth: true,
    params: ActivationCaseParams,
    body: ActivateTeamBody,
    response: TeamActivation,
  },
  standDownActivation: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/activations/:activationId/stand-down',
    summary: 'The destination ED ends an activation (idempotent)',
    auth: true,
    params: ActivationItemParams,
    response: TeamActivation,
  },
  myActivations: {
    method: 'GET',
    path: '/v4/activations/mine',
    summary: 'Activations under way that alerted the signed-in user and that they have not acknowledged',
    auth: true,
    response: ActivationsResponse,
  },
  acknowledgeActivation: {
    method: 'POST',
    path: '/v4/activations/:activationId/acknowledge',
    summary: 'A member alerted by the activation answers "on my way" (idempotent)',
    auth: true,
    params: ActivationParams,
    response: TeamActivation,
  },
  crewCaseActivations: {
    method: 'GET',
    path: '/v4/twiageCases/:id/activations',
    summary: "The case's team activations at its destination, for its crews",
    auth: true,
    params: CaseActivationsParams,
    response: ActivationsResponse,
  },
} as const satisfies Record<string, RouteDef>;
