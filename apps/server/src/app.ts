/**
 * The composition root: builds the whole server from a config object. Every module is listed below
 * in one place — its repository, its service (with the services it may call) and its routes — and
 * `close` undoes what `buildApp` opened.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { CALL_ALIVE_INTERVAL_MS } from '@inbound/contract';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, type Database } from './db/database.js';
import { registerApiDocs } from './http/api-docs.js';
import type { RouteContext } from './http/bind-route.js';
import { registerSecurityHeaders } from './http/security.js';
import { createServer } from './http/server.js';
import { registerCompression } from './http/compression.js';
import { registerStaticApps } from './http/static-apps.js';
import { createSharedState } from './shared-state.js';
import { errorLogger } from './logger.js';
import { createRepositories } from './repositories.js';
import { createAdminAuditService } from './modules/admin/audit.js';
import { createAdminUsersService } from './modules/admin/admin-users.service.js';
import { adminUsersRoutes } from './modules/admin/admin-users.routes.js';
import { adminAuditRoutes } from './modules/admin/audit.routes.js';
import { createAuditTrailService } from './modules/audit/audit-trail.js';
import { auditTrailRoutes } from './modules/audit/audit-trail.routes.js';
import { recordSecurityEvent, type SecurityEvent } from './modules/audit/security-audit.js';
import { createOrgSecuritySettings } from './modules/auth/mfa.js';
import { createMfaService } from './modules/auth/mfa.service.js';
import { mfaRoutes } from './modules/auth/mfa.routes.js';
import { createWebAuthn, relyingPartyOf } from './modules/auth/webauthn.js';
import { adminAgenciesRoutes } from './modules/admin/agencies.routes.js';
import { createAdminAgenciesService } from './modules/admin/agencies.service.js';
import { adminComplaintSetsRoutes } from './modules/admin/complaint-sets.routes.js';
import { createAdminComplaintSetsService } from './modules/admin/complaint-sets.service.js';
import { adminHospitalsRoutes } from './modules/admin/hospitals.routes.js';
import { createAdminHospitalsService } from './modules/admin/hospitals.service.js';
import { adminTrucksRoutes } from './modules/admin/trucks.routes.js';
import { createAdminTrucksService } from './modules/admin/trucks.service.js';
import { agenciesRoutes } from './modules/agencies/agencies.routes.js';
import { createAgenciesService } from './modules/agencies/agencies.service.js';
import { authRoutes, createAuthenticateHook } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createSessions } from './modules/auth/sessions.js';
import { createSignInThrottle } from './modules/auth/sign-in-throttle.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './modules/auth/passwords.js';
import { createTokenService } from './modules/auth/tokens.js';
import { boardRoutes } from './modules/board/board.routes.js';
import { createBoardService } from './modules/board/board.service.js';
import { createReadAudit } from './modules/board/read-audit.js';
import { broadcastsRoutes } from './modules/broadcasts/broadcasts.routes.js';
import { createBroadcastsService } from './modules/broadcasts/broadcasts.service.js';
import { casesRoutes } from './modules/cases/cases.routes.js';
import { createCasesService } from './modules/cases/cases.service.js';
import { createChatPush } from './modules/chat/chat-push.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { createChatService } from './modules/chat/chat.service.js';
import { complaintsRoutes } from './modules/complaints/complaints.routes.js';
import { createComplaintsService } from './modules/complaints/complaints.service.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { consoleSettingsRoutes } from './modules/console-settings/console-settings.routes.js';
import { hospitalsRoutes } from './modules/hospitals/hospitals.routes.js';
import { createHospitalsService } from './modules/hospitals/hospitals.service.js';
import { createHospitalStatusService } from './modules/hospitals/hospital-statuses.service.js';
import { createMediaModule, createMediaUploads } from './modules/media/media.module.js';
import { createBoardCards } from './modules/board/board-cards.js';
import { createCaseAccess } from './modules/cases/case-access.js';
import { createCaseAnnouncer } from './modules/cases/case-announcer.js';
import { createCaseOutbox } from './modules/cases/case-outbox.js';
import { inboundCaseRoutes } from './modules/inbound-case/inbound-case.routes.js';
import { createInboundCaseService } from './modules/inbound-case/inbound-case.service.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { createPushService, fetchTransport, type PushTransport } from './modules/push/push.service.js';
import { countingPushTransport, databaseSources, readinessChecks } from './modules/ops/instrument.js';
import { createMetrics } from './modules/ops/metrics.js';
import { opsRoutes } from './modules/ops/ops.routes.js';
import { fieldErrorRoutes } from './modules/ops/field-errors.js';
import { loadOrCreateVapidKeys } from './modules/push/vapid-keys.js';
import { createMemoryBroker } from './modules/realtime/broker.js';
import { createChannelAuthorizers, registerBuiltInChannels } from './modules/realtime/channel-authorizers.js';
import type { RealtimePublisher } from './modules/realtime/publisher.js';
import { realtimeRoutes } from './modules/realtime/realtime.routes.js';
import { createRealtimeGateway } from './modules/realtime/realtime.service.js';
import { createRedisBroker } from './modules/realtime/redis-broker.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { transfersRoutes } from './modules/transfers/transfers.routes.js';
import { createTransfersService } from './modules/transfers/transfers.service.js';
import { createGuessLimiter, createRedisGuessLimiter } from './modules/transfers/guess-limit.js';
import { createLiveTransfers, startTransferSweep } from './modules/transfers/live-transfers.js';
import { createTransferPush } from './modules/transfers/transfer-push.js';
import { dispatchRoutes } from './modules/dispatch/dispatch.routes.js';
import { createDispatchService } from './modules/dispatch/dispatch.service.js';
import { createProtocolsModule } from './modules/protocols/protocols.module.js';
import { arrivalRoutes } from './modules/arrival/arrival.routes.js';
import { createArrivalService, createFences } from './modules/arrival/arrival.service.js';
import { callsRoutes } from './modules/calls/calls.routes.js';
import { createCallsService } from './modules/calls/calls.service.js';
import { consultsRoutes } from './modules/consults/consults.routes.js';
import { createConsultsService } from './modules/consults/consults.service.js';
import { activationRoutes } from './modules/activation/activation.routes.js';
import { createActivationService } from './modules/activation/activation.service.js';
import { chargeNurseRoutes } from './modules/charge-nurse/charge-nurse.routes.js';
import { createChargeNurseService } from './modules/charge-nurse/charge-nurse.service.js';
import { handoffWatchRoutes } from './modules/handoff-watch/handoff-watch.routes.js';
import { createHandoffWatchService } from './modules/handoff-watch/handoff-watch.service.js';

export type AppConfig = Config & { jwtSecret: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** The real-time gateway's publisher (tests and benchmarks publish through it). */
    realtime: RealtimePublisher;
    /** Runs the team activations' due re-alerts and escalations now (tests move the clock, then tick). */
    teamActivationTick: () => Promise<number>;
    /** Sends the charge nurses' due offload alerts now (tests move the clock, then tick). */
    offloadAlertTick: () => Promise<number>;
    /** Ends abandoned calls and stale rings now (tests move the clock, then sweep). */
    callSweep: () => Promise<number>;
  }
}

export interface BuildOptions {
  /** An open database; when absent the app opens one from the config and closes it on close. */
  database?: Database;
  /** Web Push delivery; tests send to a local endpoint (any URL accepted) instead of a push service. */
  push?: { transport?: PushTransport; allowAnyEndpoint?: boolean };
  clock?: Clock;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /**
   * False: this process never relays the case outbox — a test's stand-in for a process killed between
   * a case commit and its announcement (another process, or the next start, announces it).
   */
  relayOutbox?: boolean;
  /**
   * How often the case outbox's relay looks for rows no wake or signal announced (case-outbox.ts POLL_MS);
   * a test sets it long to show that the signal between processes, not the poll, relayed.
   */
  outboxPollMs?: number;
  /** With WORKERS > 1: this worker's number, sent as `Inbound-Worker` so operators see who answered. */
  worker?: number;
}

export { BODY_LIMIT_BYTES } from './http/server.js';

/** How often team activations are checked for a due re-alert or escalation (activation.service.ts). */
const ACTIVATION_SWEEP_MS = 5_000;

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = options.database ?? createDatabase(config);
  const ownsDatabase = !options.database;
  const clock = options.clock ?? systemClock;
  const { db } = database;

  const app = createServer(config, options);

  // Metrics first; the sources are filled in as the modules that feed them are built.
  const metrics = createMetrics({ database: databaseSources(database), defaultMetrics: config.metricsEnabled });
  const logError = errorLogger(app.log);

  // ---- repositories: each once (repositories.ts) -----------------------------------------------
  const repos = createRepositories(database, clock);

  // Rate limits, the upload lock, revocations and guess limits, in Redis when several processes share
  // the work (shared-state.ts).
  const shared = await createSharedState(
    config.redisUrl ? { url: config.redisUrl, prefix: config.redisKeyPrefix } : null,
    (error) => app.log.error({ err: { message: error.message } }, 'Redis (shared state) error'),
  );

  // ---- who is asking: sessions, users, auth ----------------------------------------------------
  const tokens = createTokenService({ secret: config.jwtSecret, ttlMs: config.tokenTtlMs });
  const passwords = { hash: hashPassword, verify: verifyPassword, verifyAgainstDummy };
  const sessions = createSessions({
    repo: repos.auth,
    clock,
    principalCacheMs: config.authCacheMs,
    revocations: shared.revocations,
  });
  const signInThrottle = createSignInThrottle({
    repo: repos.auth,
    clock,
    accountLimit: config.signInLimits.perAccount,
  });
  const securityAudit = (event: SecurityEvent) => recordSecurityEvent(db, event);
  const users = createUsersService({
    repo: repos.users,
    clock,
    passwords,
    throttle: signInThrottle,
    sessions,
    securityAudit,
  });
  const orgSecurity = createOrgSecuritySettings(db);
  const webauthn = createWebAuthn({ db, clock, rp: relyingPartyOf(config.publicUrl, config.port) });
  const mfaService = createMfaService({
    webauthn,
    db,
    clock,
    passwords,
    throttle: signInThrottle,
    settings: orgSecurity,
    securityAudit,
    forgetUser: (userId) => sessions.forgetUser(userId),
  });
  const auth = createAuthService({
    repo: repos.auth,
    tokens,
    clock,
    users,
    passwords,
    throttle: signInThrottle,
    sessions,
    securityAudit,
    mfa: {
      settings: orgSecurity,
      enrolled: (userId) => mfaService.enrolled(userId),
      acceptSecondFactor: (userId, factor) => mfaService.acceptSecondFactor(userId, factor),
      webAuthnSignInOptions: (userId) => mfaService.webAuthnSignInOptions(userId),
    },
  });

  // ---- the real-time gateway: modules publish through `realtime.publisher`; a module owning a
  // channel kind registers its subscription check on `channelAuthorizers` (e.g. 'transfer').
  const channelAuthorizers = createChannelAuthorizers();
  const realtime = createRealtimeGateway({
    repo: repos.realtime,
    clock,
    authenticate: auth.authenticateLive,
    reloadPrincipal: (principal) => users.loadPrincipal(principal.userId, principal.sessionId),
    authorizers: channelAuthorizers,
    settings: config.realtime,
    log: app.log,
    onDelivered: metrics.realtimeDelivered,
  });
  metrics.sources.realtime = realtime.stats;
  const broker = config.redisUrl
    ? await createRedisBroker(config.redisUrl, config.redisKeyPrefix, realtime.brokerListeners, (error) =>
        app.log.error({ err: { message: error.message } }, 'Redis broker error'),
      )
    : createMemoryBroker();
  realtime.useBroker(broker);
  app.decorate('realtime', realtime.publisher);

  // Metrics and readiness before the other routes, so the request hook sees every route.
  opsRoutes(app, {
    metrics: config.metricsEnabled ? metrics : null,
    metricsToken: config.metricsToken,
    readiness: readinessChecks(database, realtime.brokerPing),
  });

  await registerSecurityHeaders(app, config.publicUrl, config.mapTileUrl);
  await registerCompression(app);
  // Off for all routes; sign-in turns it on for itself (other routes are limited by authentication).
  await app.register(rateLimit, shared.rateLimit);
  if (config.apiDocs) await registerApiDocs(app, config.brandName);

  // ---- the catalogue crews work from ------------------------------------------------------------
  const hospitals = createHospitalsService({ repo: repos.hospitals, agencies: repos.agencies });
  const agencies = createAgenciesService({ repo: repos.agencies, hospitals });
  const complaints = createComplaintsService({ repo: repos.complaints, agencies });
  const hospitalStatuses = createHospitalStatusService({
    repo: repos.hospitals,
    clock,
    publisher: realtime.publisher,
  });
  const broadcasts = createBroadcastsService({
    repo: repos.broadcasts,
    clock,
    publisher: realtime.publisher,
    hospitals,
    agencies,
    users,
  });
  const feedback = createFeedbackService({ repo: repos.feedback, clock });

  // ---- the case: one access policy, one writer, one outbox ---------------------------------------
  const caseAccess = createCaseAccess({
    findWithAccess: (caseId, userId) => repos.cases.findWithAccess(caseId, userId),
    findCase: (caseId) => repos.cases.findById(caseId),
    hospitalsByIds: (ids) => hospitals.hospitalsByIds(ids),
  });
  const boardCards = createBoardCards({ repo: repos.board, complaints });
  // Case events and the case's other messages are announced after their commit (case-outbox.ts).
  const caseOutbox = createCaseOutbox({
    db,
    announce: createCaseAnnouncer({
      publisher: realtime.publisher,
      hospitalOnPlatform: (hospitalId) => caseAccess.hospitalOnPlatform(hospitalId),
      boardCards: boardCards.cards,
      upload: createMediaUploads(repos.media).upload,
      sentByCrew: async (caseId, messageId) => (await repos.chat.findById(caseId, messageId))?.sender_side === 'crew',
    }),
    logError,
    relay: options.relayOutbox ?? true,
    signalOthers: () => broker.signalOutbox(),
    ...(options.outboxPollMs ? { pollMs: options.outboxPollMs } : {}),
  });
  broker.onOutboxSignal(() => caseOutbox.peerCommitted());
  metrics.sources.outboxBacklog = () => caseOutbox.backlog();
  const liveTransfers = createLiveTransfers(repos.transfers, clock);
  const cases = createCasesService({
    repo: repos.cases,
    clock,
    agencies,
    complaints,
    hospitals,
    access: caseAccess,
    transfers: liveTransfers,
    outbox: caseOutbox,
    // The destination's geofence, checked with each position report (issue 15, arrival).
    arrival: createFences(repos.arrival),
  });
  const arrival = createArrivalService({ repo: repos.arrival, clock, access: caseAccess, cases, hospitals });
  registerBuiltInChannels(channelAuthorizers, {
    mayReadCase: (principal, caseId) => caseAccess.mayRead(principal, caseId),
    agencyIdsDeliveringTo: (hospitalId) => agencies.agencyIdsDeliveringTo(hospitalId),
  });

  // ---- around the case: push, chat, transfers, media, board --------------------------------------
  const push = createPushService({
    repo: repos.push,
    vapid: {
      ...loadOrCreateVapidKeys(config.dataDir),
      // RFC 8292: a contact for the push service's operators — the deployment's https address if any.
      subject: config.publicUrl?.startsWith('https://') ? config.publicUrl : 'mailto:push@inbound.invalid',
    },
    participants: caseAccess,
    clock,
    connections: realtime.publisher,
    transport: countingPushTransport(options.push?.transport ?? fetchTransport, metrics),
    allowAnyEndpoint: options.push?.allowAnyEndpoint ?? false,
    onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'push not delivered'),
  });
  const chat = createChatService({
    repo: repos.chat,
    participants: caseAccess,
    clock,
    cases,
    users,
    push: createChatPush({
      push,
      crewsOf: (caseId) => repos.cases.accessUserIds(caseId),
      onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'push not delivered'),
    }),
  });
  // Voice calls crew ↔ destination ED (issue 12); the `call:{id}` channel is read like its case's.
  const calls = createCallsService({
    repo: repos.calls,
    clock,
    access: caseAccess,
    cases,
    publisher: realtime.publisher,
    ice: { iceServers: config.iceServers, turn: config.turn, iceTransportPolicy: config.iceTransportPolicy },
    hospitalsByIds: (ids) => hospitals.hospitalsByIds(ids),
    findCase: (caseId) => repos.cases.findById(caseId),
    displayName: (userId) => users.displayName(userId),
    boardCard: boardCards.card,
    transferInProgress: (caseId) => liveTransfers.inProgress(caseId),
    consultInProgress: (caseId) => consults.liveOnCase(caseId),
  });
  channelAuthorizers.register('call', (principal, callId) => calls.mayRead(principal, callId));
  // A connected call whose two browsers are gone (and a ring nobody ended) is ended by this sweep.
  const callSweep = setInterval(() => {
    calls.sweep().catch((error: unknown) => logError(error, 'call expiry sweep failed'));
  }, CALL_ALIVE_INTERVAL_MS);
  callSweep.unref();
  app.decorate('callSweep', () => calls.sweep());
  // Live video consults (issue 12): the `consult:{id}` channel is read like its case's.
  const consults = createConsultsService({
    repo: repos.consults,
    clock,
    access: caseAccess,
    cases,
    publisher: realtime.publisher,
    ice: { iceServers: config.iceServers, turn: config.turn, iceTransportPolicy: config.iceTransportPolicy },
    hospitalsByIds: (ids) => hospitals.hospitalsByIds(ids),
    findCase: (caseId) => repos.cases.findById(caseId),
    displayName: (userId) => users.displayName(userId),
    callInProgress: (caseId) => calls.liveOnCase(caseId),
    transferInProgress: (caseId) => liveTransfers.inProgress(caseId),
  });
  channelAuthorizers.register('consult', (principal, consultId) => consults.mayRead(principal, consultId));
  // Transfer codes and dispatched-case numbers share one guess limit (across processes with Redis).
  const numberGuesses = shared.guessStore
    ? createRedisGuessLimiter(shared.guessStore, config.redisKeyPrefix, clock, (error) =>
        logError(error, 'Redis (guess limit) error'),
      )
    : createGuessLimiter(clock);
  const transfers = createTransfersService({
    repo: repos.transfers,
    guesses: numberGuesses,
    clock,
    publisher: realtime.publisher,
    cases,
    agencies,
    // Spec §4: no transfer during a voice call or a live consult (both are calls to the crew).
    calls: { liveOnCase: async (caseId) => (await calls.liveOnCase(caseId)) || consults.liveOnCase(caseId) },
    push: createTransferPush(push),
  });
  channelAuthorizers.register('transfer', (principal, transferId) =>
    transfers.maySubscribe(principal.userId, transferId),
  );
  const stopTransferSweep = startTransferSweep(transfers, (error) => logError(error, 'transfer expiry sweep failed'));
  // Team activation (issue 15): its re-alerts and escalations are found in the database by the sweep.
  const activation = createActivationService({
    repo: repos.activation,
    clock,
    access: caseAccess,
    cases,
    hospitals,
    publisher: realtime.publisher,
    push,
    displayName: (userId) => users.displayName(userId),
    onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'team alert not delivered'),
  });
  const activationSweep = setInterval(() => {
    activation.tick().catch((error: unknown) => logError(error, 'team activation sweep failed'));
  }, ACTIVATION_SWEEP_MS);
  activationSweep.unref();
  app.decorate('teamActivationTick', () => activation.tick());
  // Charge nurses (issue 15, decision 0038): the offload alerts are found in the database by the sweep.
  const chargeNurses = createChargeNurseService({
    repo: repos.chargeNurse,
    clock,
    access: caseAccess,
    hospitals,
    staff: (hospitalId) => repos.activation.staff(hospitalId),
    publisher: realtime.publisher,
    push,
    onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'offload alert not delivered'),
  });
  const offloadAlertSweep = setInterval(() => {
    chargeNurses.tick().catch((error: unknown) => logError(error, 'offload alert sweep failed'));
  }, ACTIVATION_SWEEP_MS);
  offloadAlertSweep.unref();
  app.decorate('offloadAlertTick', () => chargeNurses.tick());
  const handoffWatches = createHandoffWatchService({
    repo: repos.handoffWatch,
    clock,
    access: caseAccess,
    hospitals,
    secret: config.jwtSecret,
  });
  const readAudit = createReadAudit((rows) => repos.board.recordReads(rows));
  const media = createMediaModule({
    repo: repos.media,
    cases,
    auditHospitalRead: readAudit.media,
    clock,
    config: config.media,
    secret: config.jwtSecret,
    log: app.log,
    voiceMemoChat: chat.voiceMemos,
    authoriseRecording: (principal, caseId, callId) => calls.authoriseRecording(principal, caseId, callId),
    onConversionDone: metrics.conversionDone,
    ...(shared.uploadLocker ? { uploadLocker: shared.uploadLocker } : {}),
    sessionPrincipal: (userId, sessionId) => auth.sessionPrincipal(userId, sessionId),
  });
  metrics.sources.conversionQueue = media.service.queueSize;
  const dispatch = createDispatchService({
    repo: repos.dispatch,
    clock,
    publisher: realtime.publisher,
    broadcasts,
    broadcastStore: repos.broadcasts,
    agencies,
    complaints,
    cases,
    guesses: numberGuesses,
  });
  const board = createBoardService({
    repo: repos.board,
    audit: readAudit,
    clock,
    complaints,
    agencies,
    access: caseAccess,
    cases,
  });
  const inboundCase = createInboundCaseService({
    repo: repos.inboundCase,
    clock,
    access: caseAccess,
    media: media.service,
    chat,
  });

  // ---- routes ------------------------------------------------------------------------------------
  const ctx: RouteContext = { authenticate: createAuthenticateHook(auth) };
  healthRoutes(app, ctx, { database: database.dialect, broker: realtime.brokerKind() });
  consoleSettingsRoutes(app, ctx, { mapTileUrl: config.mapTileUrl });
  fieldErrorRoutes(app, ctx, { metrics, ...config.errorReports });
  authRoutes(app, ctx, auth, config.signInLimits.perAddress);
  mfaRoutes(app, ctx, mfaService);
  usersRoutes(app, ctx, users);
  agenciesRoutes(app, ctx, agencies);
  hospitalsRoutes(app, ctx, hospitals, hospitalStatuses);
  complaintsRoutes(app, ctx, complaints);
  broadcastsRoutes(app, ctx, broadcasts);
  feedbackRoutes(app, ctx, feedback);
  chatRoutes(app, ctx, chat);
  pushRoutes(app, ctx, push);
  transfersRoutes(app, ctx, transfers);
  dispatchRoutes(app, ctx, dispatch);
  casesRoutes(app, ctx, cases);
  arrivalRoutes(app, ctx, arrival);
  callsRoutes(app, ctx, calls);
  consultsRoutes(app, ctx, consults);
  activationRoutes(app, ctx, activation);
  chargeNurseRoutes(app, ctx, chargeNurses);
  handoffWatchRoutes(app, ctx, handoffWatches);
  boardRoutes(app, ctx, board);
  adminAuditRoutes(app, ctx, createAdminAuditService(db));
  auditTrailRoutes(
    app,
    ctx,
    createAuditTrailService(db, () => clock.now()),
  );
  adminUsersRoutes(
    app,
    ctx,
    createAdminUsersService({
      db,
      clock,
      passwords,
      sessions,
      publisher: realtime.publisher,
      retentionMs: config.realtime.retentionMs,
      logError,
    }),
  );
  // The catalogue crews work from (agencies, trucks, hospitals, complaint sets), each change audited.
  adminAgenciesRoutes(app, ctx, createAdminAgenciesService({ repo: repos.adminAgencies, clock }));
  adminTrucksRoutes(app, ctx, createAdminTrucksService({ repo: repos.adminTrucks, clock }));
  adminHospitalsRoutes(app, ctx, createAdminHospitalsService({ repo: repos.adminHospitals, clock }));
  adminComplaintSetsRoutes(app, ctx, createAdminComplaintSetsService({ repo: repos.adminComplaintSets, clock }));
  await media.routes(app, ctx);
  createProtocolsModule({
    db,
    clock,
    config,
    secret: config.jwtSecret,
    caseView: (principal, caseId) => cases.get(principal, caseId),
    complaintSet: (caseId) => cases.complaintSetOf(caseId),
    isAgencyMember: (userId, agencyId) => users.isTeamMember(userId, agencyId),
    log: app.log,
  }).routes(app, ctx);
  inboundCaseRoutes(app, ctx, inboundCase);
  await realtimeRoutes(app, ctx, realtime, {
    maxFrameBytes: config.realtime.maxFrameBytes,
    publicUrl: config.publicUrl,
    allowedOrigins: config.realtime.allowedOrigins,
  });

  await registerStaticApps(app, { crewDist: config.crewDist, hospitalDist: config.hospitalDist });

  app.addHook('onClose', async () => {
    stopTransferSweep();
    clearInterval(activationSweep);
    clearInterval(offloadAlertSweep);
    clearInterval(callSweep);
    await caseOutbox.close();
    await media.close();
    await push.drain();
    await realtime.close();
    await shared.close();
    if (ownsDatabase) await database.close();
  });
  await app.ready();
  return app;
}
