/**
 * The wire contract (spec §7): each call described once — method, path, params, query, body, response.
 * The server binds these schemas to its routes; the clients build their requests from the same table.
 */
import { z } from 'zod';
import { ClientErrorReport } from './client-errors.js';
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
  ProtocolFeedbackBody,
  ProtocolFeedbackResponse,
  ProtocolImport,
  ProtocolImportParams,
  ProtocolLibraryQuery,
  ProtocolLibraryResponse,
  ProtocolReviewQuery,
  ProtocolReviewResponse,
  ProtocolUploadQuery,
  QuestionBody,
  QuestionResult,
} from './protocols.js';
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
import {
  CancelTransferBody,
  CaseTransfer,
  ChatMessage,
  ChatMessageParams,
  ChatMessagesResponse,
  CreateTransferBody,
  HospitalStatusParams,
  PostChatMessageBody,
  PushSubscriptionBody,
  RequestTransferBody,
  SendBroadcastBody,
  SendBroadcastResponse,
  BroadcastRecipientsResponse,
  SetHospitalStatusBody,
  SetHospitalStatusResponse,
  TransferCodeParams,
  TransferParams,
  VapidPublicKeyResponse,
} from './realtime-api.js';
import {
  MediaAccessParams,
  MediaAccessResponse,
  MediaListResponse,
  MediaUploadParams,
  MediaUploadResponse,
} from './media.js';
import { RealtimeSecret } from './realtime.js';
import {
  AcknowledgeResponse,
  BoardCaseDetail,
  BoardCaseParams,
  BoardParams,
  BoardResponse,
  InboundCaseFeedbackResponse,
} from './board.js';
import { adminAuditRoutes } from './admin-audit.js';
import { auditTrailRoutes } from './audit-trail.js';
import { mfaRoutes, SignInSecondFactor } from './mfa.js';
import { webAuthnRoutes } from './webauthn.js';
import { adminUserRoutes } from './admin-users.js';
import { adminCatalogRoutes } from './admin.js';
import { dispatchRoutes } from './dispatch.js';
import { arrivalRoutes, handoffWatchRoutes } from './arrival.js';
import { chargeNurseRoutes } from './charge-nurse.js';
import { callRoutes } from './calls.js';
import { consultRoutes } from './consults.js';
import { activationRoutes } from './activation.js';

export const ErrorBody = z.object({ message: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const SignInBody = z.object({
  username: z.string().trim().min(1, 'username is required').max(320),
  password: z.string().min(1, 'password is required').max(PASSWORD_MAX_LENGTH),
  twiageClient: z.enum(['ems', 'hospital']),
  platform: z.string().min(1).max(32),
  ...SignInSecondFactor.shape,
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

/** Server settings the console reads at run time, so one deployment setting serves every build. */
export const ConsoleSettings = z.object({
  /** Leaflet tile URL template for the route map; null: draw the route without a background map. */
  mapTileUrl: z.string().nullable(),
});
export type ConsoleSettings = z.infer<typeof ConsoleSettings>;

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
  reportClientError: {
    method: 'POST',
    path: '/v4/client-errors',
    summary: 'An error from the field (ids and codes only); limited per device; no token needed',
    auth: false,
    body: ClientErrorReport,
    response: null,
  },
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
  // The protocol assistant (§7); with header `streaming: true` the answer streams as text, '+++', then this JSON.
  question: {
    method: 'POST',
    path: '/questions',
    summary: "Ask the agency's protocols; streamed with header streaming: true",
    auth: true,
    body: QuestionBody,
    response: QuestionResult,
  },
  protocolFeedback: {
    method: 'POST',
    path: '/feedback',
    summary: 'Thumbs up or down on a protocol answer (text required on down)',
    auth: true,
    body: ProtocolFeedbackBody,
    response: ProtocolFeedbackResponse,
  },
  protocolReview: {
    method: 'GET',
    path: '/v4/admin/protocols/questions',
    summary: "The organisation admin's review list of protocol questions, answers and feedback",
    auth: true,
    query: ProtocolReviewQuery,
    response: ProtocolReviewResponse,
  },
  protocolLibrary: {
    method: 'GET',
    path: '/v4/admin/protocols/library',
    summary: "An agency's protocol documents (current versions) and its recent uploads",
    auth: true,
    query: ProtocolLibraryQuery,
    response: ProtocolLibraryResponse,
  },
  // The body is the file's bytes (Content-Type application/pdf, text/markdown or text/html), not JSON.
  protocolUpload: {
    method: 'POST',
    path: '/v4/admin/protocols/imports',
    summary: 'Upload a protocol file (query agencyId, fileName); answers 202 with the import job',
    auth: true,
    query: ProtocolUploadQuery,
    response: ProtocolImport,
  },
  protocolImport: {
    method: 'GET',
    path: '/v4/admin/protocols/imports/:id',
    summary: 'An upload: its progress, and its outcome or why it failed',
    auth: true,
    params: ProtocolImportParams,
    response: ProtocolImport,
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
  // ---- media (§7): multipart `type` + `data`, Idempotency-Key; large files also resumable (tus) ------
  uploadMedia: {
    method: 'POST',
    path: '/media/twiage-cases/:id/uploads',
    summary: 'Upload a photo, ID, EKG, video or voice memo (multipart: type, then data)',
    auth: true,
    params: MediaUploadParams,
    response: MediaUploadResponse,
  },
  listMedia: {
    method: 'GET',
    path: '/media/twiage-cases/:id/uploads',
    summary: "The case's uploads with their conversion status, for its crews and its hospital",
    auth: true,
    params: MediaUploadParams,
    response: MediaListResponse,
  },
  mediaAccess: {
    method: 'GET',
    path: '/media/twiage-cases/:id/uploads/:uploadId/access',
    summary: "A short-lived link to an upload's file for <video>/<img>, which cannot send the token",
    auth: true,
    params: MediaAccessParams,
    response: MediaAccessResponse,
  },
  // ---- real time (issue 4): chat, broadcasts, hospital statuses, push, case transfer ---------------
  chatMessages: {
    method: 'GET',
    path: '/notification/twiage-cases/:id/chat-messages',
    summary: "A case's chat, oldest first: for its crews and the ED staff of its destination hospital",
    auth: true,
    params: CaseParams,
    response: ChatMessagesResponse,
  },
  postChatMessage: {
    method: 'POST',
    path: '/notification/twiage-cases/:id/chat-messages',
    summary: 'Send a chat message (or a voice memo); takes an Idempotency-Key header',
    auth: true,
    params: CaseParams,
    body: PostChatMessageBody,
    response: ChatMessage,
  },
  chatMessageDelivered: {
    method: 'POST',
    path: '/notification/twiage-cases/:id/chat-messages/:messageId/delivered',
    summary: 'Receipt: a client of the other side received the message',
    auth: true,
    params: ChatMessageParams,
    response: ChatMessage,
  },
  chatMessageRead: {
    method: 'POST',
    path: '/notification/twiage-cases/:id/chat-messages/:messageId/read',
    summary: 'Receipt: someone of the other side read the message',
    auth: true,
    params: ChatMessageParams,
    response: ChatMessage,
  },
  sendBroadcast: {
    method: 'POST',
    path: '/notification/broadcasts',
    summary: 'Send a broadcast from a hospital to agencies that deliver to it (its ED staff, org admins)',
    auth: true,
    body: SendBroadcastBody,
    response: SendBroadcastResponse,
  },
  broadcastRecipients: {
    method: 'GET',
    path: '/v4/hospitals/:id/broadcast-recipients',
    summary: 'The agencies delivering to a hospital, which its broadcasts may go to (its ED staff, org admins)',
    auth: true,
    params: HospitalParams,
    response: BroadcastRecipientsResponse,
  },
  setHospitalStatus: {
    method: 'POST',
    path: '/v4/hospitals/:id/statuses',
    summary: 'Set an active status of a hospital (its ED staff, org admins)',
    auth: true,
    params: HospitalParams,
    body: SetHospitalStatusBody,
    response: SetHospitalStatusResponse,
  },
  clearHospitalStatus: {
    method: 'DELETE',
    path: '/v4/hospitals/:id/statuses/:statusId',
    summary: 'Clear an active status of a hospital; answers the statuses still active',
    auth: true,
    params: HospitalStatusParams,
    response: HospitalStatusesResponse,
  },
  vapidPublicKey: {
    method: 'GET',
    path: '/notification/vapid-public-key',
    summary: "The server's VAPID public key, for PushManager.subscribe (applicationServerKey)",
    auth: true,
    response: VapidPublicKeyResponse,
  },
  pushSubscribe: {
    method: 'POST',
    path: '/notification/subscribe',
    summary: 'Subscribe a browser push subscription to user-{id} or ems-{caseId}',
    auth: true,
    body: PushSubscriptionBody,
    response: null,
  },
  pushUnsubscribe: {
    method: 'POST',
    path: '/notification/unsubscribe',
    summary: 'Unsubscribe a browser push subscription from a topic',
    auth: true,
    body: PushSubscriptionBody,
    response: null,
  },
  createTransfer: {
    method: 'POST',
    path: '/v4/case-transfers',
    summary: 'Open a case transfer; answers its six-digit code',
    auth: true,
    body: CreateTransferBody,
    response: CaseTransfer,
  },
  getTransfer: {
    method: 'GET',
    path: '/v4/case-transfers/:id',
    summary: 'A case transfer, for its two crews',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  requestTransfer: {
    method: 'POST',
    path: '/v4/case-transfers/:code/request',
    summary: 'A crew asks to receive the case with the code it was told',
    auth: true,
    params: TransferCodeParams,
    body: RequestTransferBody,
    response: CaseTransfer,
  },
  acceptTransferRequest: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/accept-request',
    summary: 'The sending crew accepts the request: the receiver may load the case',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  denyTransferRequest: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/deny-request',
    summary: 'The sending crew declines the request; the code stays open',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  cancelTransfer: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/cancel',
    summary: 'The sending crew cancels the transfer (no request pending)',
    auth: true,
    params: TransferParams,
    body: CancelTransferBody,
    response: CaseTransfer,
  },
  cancelTransferRequest: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/cancel-request',
    summary: 'The receiving crew withdraws its open request',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  transferReceived: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/received',
    summary: 'The receiving crew has loaded the case',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  acknowledgeTransfer: {
    method: 'PATCH',
    path: '/v4/case-transfers/:id/acknowledge',
    summary: 'The sending crew acknowledges: done, the case now belongs to the receiving crew',
    auth: true,
    params: TransferParams,
    response: CaseTransfer,
  },
  inboundBoard: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound',
    summary: "The hospital's inbound board: open cases coming to it and recently arrived ones (its ED staff)",
    auth: true,
    params: BoardParams,
    response: BoardResponse,
  },
  inboundCase: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound/:caseId',
    summary: 'One inbound case in full for its destination ED; every read is audited',
    auth: true,
    params: BoardCaseParams,
    response: BoardCaseDetail,
  },
  acknowledgeCase: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/acknowledge',
    summary: 'The destination ED marks the case as seen (idempotent); the crew is told',
    auth: true,
    params: BoardCaseParams,
    response: AcknowledgeResponse,
  },
  inboundCaseMedia: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound/:caseId/media',
    summary: "An inbound case's uploads for its destination ED (players, status); every read is audited",
    auth: true,
    params: BoardCaseParams,
    response: MediaListResponse,
  },
  inboundCaseChat: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound/:caseId/chat',
    summary: "An inbound case's chat, oldest first, for its destination ED; every read is audited",
    auth: true,
    params: BoardCaseParams,
    response: ChatMessagesResponse,
  },
  inboundCaseFeedback: {
    method: 'GET',
    path: '/v4/hospitals/:id/inbound/:caseId/feedback',
    summary: "The crews' ratings and notes of the hand-over, for the case's destination ED; audited",
    auth: true,
    params: BoardCaseParams,
    response: InboundCaseFeedbackResponse,
  },
  realtimeSecret: {
    method: 'GET',
    path: '/secret',
    summary: 'How to connect to the real-time gateway (/realtime): its path, heartbeat and channels',
    auth: true,
    response: RealtimeSecret,
  },
  consoleSettings: {
    method: 'GET',
    path: '/v4/console-settings',
    summary: "The console's run-time settings (the map tile server)",
    auth: true,
    response: ConsoleSettings,
  },
  ...adminAuditRoutes,
  ...auditTrailRoutes,
  ...mfaRoutes,
  ...webAuthnRoutes,
  ...adminUserRoutes,
  ...adminCatalogRoutes,
  ...dispatchRoutes,
  ...arrivalRoutes,
  ...handoffWatchRoutes,
  ...chargeNurseRoutes,
  ...callRoutes,
  ...consultRoutes,
  ...activationRoutes,
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
