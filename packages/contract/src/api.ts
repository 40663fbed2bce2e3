/**
 * The wire contract (spec §7): each call described once — method, path, params, query, body, response.
 * The server binds these schemas to its routes; the clients build their requests from the same table.
 */
import { z } from 'zod';
import { CLIENT_NAME, PASSWORD_MAX_LENGTH, TEXT_MAX_LENGTH } from './constants.js';
import {
  AuthToken,
  BroadcastMessage,
  ComplaintSet,
  Hospital,
  HospitalStatus,
  Id,
  Team,
  Truck,
  User,
} from './entities.js';
import {
  Case,
  CaseChangeResponse,
  CaseFeedbackBody,
  CaseFeedbackResponse,
  CaseParams,
  CreateCaseBody,
  CreateCaseQuery,
  CreateCaseResponse,
  DynamicFormBody,
  DynamicFormParams,
  GetCaseQuery,
  LocationUpdateBody,
  MonitorIntegrationBody,
  MonitorIntegrationResponse,
  MonitorParams,
  PatchCaseBody,
  TagParams,
  TagQuery,
  TagValuesBody,
} from './case.js';

export const ErrorBody = z.object({ message: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const SignInBody = z.object({
  username: z.string().trim().min(1, 'username is required').max(320),
  password: z.string().min(1, 'password is required').max(PASSWORD_MAX_LENGTH),
  twiageClient: z.enum(['ems', 'hospital']),
  platform: z.string().min(1).max(32),
});
export type SignInBody = z.infer<typeof SignInBody>;
export const SignInResponse = z.object({ authorizationToken: AuthToken });
export type SignInResponse = z.infer<typeof SignInResponse>;

export const ChangePasswordBody = z.object({
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH),
  newPassword: z.string().max(PASSWORD_MAX_LENGTH),
  verifyPassword: z.string().max(PASSWORD_MAX_LENGTH),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
export const MessageResponse = z.object({ message: z.string() });

export const TeamParams = z.object({ id: Id });
export const TeamQuery = z.object({ fields: z.string().max(200).optional() });
export const TrucksResponse = z.array(Truck);

export const ComplaintSetQuery = z.object({
  name: z.string().min(1, 'name is required').max(200),
  firstOccurrenceOnly: z.enum(['true', 'false']).optional(),
});
export const ComplaintSetsResponse = z.array(ComplaintSet);

export const HospitalParams = z.object({ id: Id });
export const HospitalStatusesResponse = z.object({ hospitalId: Id, activeStatuses: z.array(HospitalStatus) });
export type HospitalStatusesResponse = z.infer<typeof HospitalStatusesResponse>;

export const BroadcastsResponse = z.object({ data: z.array(BroadcastMessage) });
export type BroadcastsResponse = z.infer<typeof BroadcastsResponse>;
export const BroadcastChannelsResponse = z.object({ channels: z.object({ broadcast: z.array(z.string()) }) });

export const FeedbackBody = z.object({
  message: z.string().trim().min(1, 'message is required').max(TEXT_MAX_LENGTH),
  clientInfo: z.object({ client: z.string().min(1).max(64), clientVersion: z.string().min(1).max(64) }),
});
export type FeedbackBody = z.infer<typeof FeedbackBody>;
export const FeedbackResponse = z.object({ id: Id, message: z.string() });

export const HealthResponse = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  broker: z.enum(['memory', 'redis']),
});

export const feedbackClientInfo = (version: string) => ({ client: CLIENT_NAME, clientVersion: version });

/** A route of the contract. `path` uses `:name` parameters, as Fastify does. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  auth: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType | null;
}

export const routes = {
  signIn: {
    method: 'POST',
    path: '/v4/auth/signin',
    summary: 'Sign in with username or e-mail; answers a JWT and its expiry',
    auth: false,
    body: SignInBody,
    response: SignInResponse,
  },
  signOut: { method: 'POST', path: '/v4/auth/signout', summary: 'Revoke the token', auth: true, response: null },
  me: { method: 'GET', path: '/v4/users/me', summary: 'The signed-in user', auth: true, response: User },
  changePassword: {
    method: 'POST',
    path: '/v4/users/password',
    summary: "Change the password; revokes the user's other tokens",
    auth: true,
    body: ChangePasswordBody,
    response: MessageResponse,
  },
  team: {
    method: 'GET',
    path: '/v4/emsAgencies/:id',
    summary: 'A team (EMS agency) the user is a member or admin of',
    auth: true,
    params: TeamParams,
    query: TeamQuery,
    response: Team,
  },
  trucks: {
    method: 'GET',
    path: '/v4/emsAgencies/:id/trucks',
    summary: "A team's trucks",
    auth: true,
    params: TeamParams,
    response: TrucksResponse,
  },
  complaintSets: {
    method: 'GET',
    path: '/v4/complaintSets',
    summary: 'Complaint sets by name, newest version first',
    auth: true,
    query: ComplaintSetQuery,
    response: ComplaintSetsResponse,
  },
  hospitalStatuses: {
    method: 'GET',
    path: '/v4/hospitals/:id/statuses',
    summary: "A hospital's active statuses",
    auth: true,
    params: HospitalParams,
    response: HospitalStatusesResponse,
  },
  hospital: {
    method: 'GET',
    path: '/v4/hospitals/:id',
    summary: 'A hospital, for its ED staff, organisation admins and crews whose teams deliver to it',
    auth: true,
    params: HospitalParams,
    response: Hospital,
  },
  broadcastChannels: {
    method: 'GET',
    path: '/notification/broadcast/channels/me',
    summary: "The broadcast channels of the user's teams",
    auth: true,
    response: BroadcastChannelsResponse,
  },
  broadcasts: {
    method: 'GET',
    path: '/notification/broadcast/me',
    summary: "Broadcast messages to the user's teams, newest first",
    auth: true,
    response: BroadcastsResponse,
  },
  feedback: {
    method: 'POST',
    path: '/v4/feedback',
    summary: 'General feedback about the app',
    auth: true,
    body: FeedbackBody,
    response: FeedbackResponse,
  },
  // ---- the case (§7): every write takes an Idempotency-Key header -------------------------------
  createCase: {
    method: 'POST',
    path: '/v4/twiageCases',
    summary: 'Start a case; the query carries the client placeholder id (?placeholder-{ts})',
    auth: true,
    query: CreateCaseQuery,
    body: CreateCaseBody,
    response: CreateCaseResponse,
  },
  getCase: {
    method: 'GET',
    path: '/v4/twiageCases/:id',
    summary: 'A case the user owns (or was transferred)',
    auth: true,
    params: CaseParams,
    query: GetCaseQuery,
    response: Case,
  },
  patchCase: {
    method: 'PATCH',
    path: '/v4/twiageCases/:id',
    summary: 'One change: complaint, destinationHospital, gender, age + agePeriod, or arrivedAt (closes)',
    auth: true,
    params: CaseParams,
    body: PatchCaseBody,
    response: CaseChangeResponse,
  },
  caseLocation: {
    method: 'POST',
    path: '/v4/twiageCases/:id/locationUpdates',
    summary: "The truck's position",
    auth: true,
    params: CaseParams,
    body: LocationUpdateBody,
    response: CaseChangeResponse,
  },
  addCaseTag: {
    method: 'POST',
    path: '/v4/twiageCases/:id/tags',
    summary: "Select a tag of the case's complaint",
    auth: true,
    params: CaseParams,
    query: TagQuery,
    response: CaseChangeResponse,
  },
  removeCaseTag: {
    method: 'DELETE',
    path: '/v4/twiageCases/:id/tags',
    summary: 'Unselect a tag',
    auth: true,
    params: CaseParams,
    query: TagQuery,
    response: CaseChangeResponse,
  },
  caseTagValues: {
    method: 'PATCH',
    path: '/v4/twiageCases/:id/tags/:tagId/values',
    summary: "Values of a selected data-enabled tag's fields (kept as history)",
    auth: true,
    params: TagParams,
    body: TagValuesBody,
    response: CaseChangeResponse,
  },
  caseDynamicForm: {
    method: 'PUT',
    path: '/v4/twiageCases/:id/dynamicForms/:formId',
    summary: "Patient info: replaces the case's values of the team's patient info form",
    auth: true,
    params: DynamicFormParams,
    body: DynamicFormBody,
    response: CaseChangeResponse,
  },
  monitorIntegration: {
    method: 'PATCH',
    path: '/monitor-integration/:type/:caseId',
    summary: "Link one of the team's monitors and the patient id shown on it",
    auth: true,
    params: MonitorParams,
    body: MonitorIntegrationBody,
    response: MonitorIntegrationResponse,
  },
  caseFeedback: {
    method: 'POST',
    path: '/v4/twiageCases/:id/case-feedback',
    summary: "The crew's rating of the hospital hand-over (also on a closed case)",
    auth: true,
    params: CaseParams,
    body: CaseFeedbackBody,
    response: CaseFeedbackResponse,
  },
  health: {
    method: 'GET',
    path: '/health',
    summary: 'Liveness and what the server runs on',
    auth: false,
    response: HealthResponse,
  },
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** Fills `:name` parameters of a route path. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
