/**
 * The composition root: builds the whole server from a config object. Every module is listed below
 * in one place — its repository, its service (with the services it may call) and its routes — and
 * `close` undoes what `buildApp` opened.
 */
import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { PASSWORD_CHANGE_REQUIRED } from '@inbound/contract';
import type { DestinationStream } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, type Database } from './db/database.js';
import { createGroupCommit } from './db/group-commit.js';
import { errorHandler, unauthorized } from './errors.js';
import { registerApiDocs } from './http/api-docs.js';
import type { RouteContext } from './http/bind-route.js';
import { registerSecurityHeaders } from './http/security.js';
import { parseJsonBody, refuseUnsafeParameters } from './http/text-safety.js';
import { registerCompression } from './http/compression.js';
import { registerStaticApps } from './http/static-apps.js';
import { createSharedState } from './shared-state.js';
import { loggerOptions } from './logger.js';
import { createAdminAuditService } from './modules/admin/audit.js';
import { createAdminUsersService } from './modules/admin/admin-users.service.js';
import { adminUsersRoutes } from './modules/admin/admin-users.routes.js';
import { adminAuditRoutes } from './modules/admin/audit.routes.js';
import { adminAgenciesRoutes } from './modules/admin/agencies.routes.js';
import { createAdminAgenciesService } from './modules/admin/agencies.service.js';
import { adminComplaintSetsRoutes } from './modules/admin/complaint-sets.routes.js';
import { createAdminComplaintSetsService } from './modules/admin/complaint-sets.service.js';
import { adminHospitalsRoutes } from './modules/admin/hospitals.routes.js';
import { createAdminHospitalsService } from './modules/admin/hospitals.service.js';
import { adminTrucksRoutes } from './modules/admin/trucks.routes.js';
import { createAdminTrucksService } from './modules/admin/trucks.service.js';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.js';
import { agenciesRoutes } from './modules/agencies/agencies.routes.js';
import { createAgenciesService } from './modules/agencies/agencies.service.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes, createAuthenticateHook } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createSignInThrottle } from './modules/auth/sign-in-throttle.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './modules/auth/passwords.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createBoardRepository } from './modules/board/board.repository.js';
import { boardRoutes } from './modules/board/board.routes.js';
import { createBoardService } from './modules/board/board.service.js';
import { createReadAudit } from './modules/board/read-audit.js';
import { createBroadcastsRepository } from './modules/broadcasts/broadcasts.repository.js';
import { broadcastsRoutes } from './modules/broadcasts/broadcasts.routes.js';
import { createBroadcastsService } from './modules/broadcasts/broadcasts.service.js';
import { createCasesRepository } from './modules/cases/cases.repository.js';
import { casesRoutes } from './modules/cases/cases.routes.js';
import { createCasesService } from './modules/cases/cases.service.js';
import { createChatRepository } from './modules/chat/chat.repository.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { createChatService } from './modules/chat/chat.service.js';
import { createComplaintsRepository } from './modules/complaints/complaints.repository.js';
import { complaintsRoutes } from './modules/complaints/complaints.routes.js';
import { createComplaintsService } from './modules/complaints/complaints.service.js';
import { createFeedbackRepository } from './modules/feedback/feedback.repository.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { consoleSettingsRoutes } from './modules/console-settings/console-settings.routes.js';
import { createHospitalsRepository } from './modules/hospitals/hospitals.repository.js';
import { hospitalsRoutes } from './modules/hospitals/hospitals.routes.js';
import { createHospitalsService } from './modules/hospitals/hospitals.service.js';
import { createHospitalStatusService } from './modules/hospitals/hospital-statuses.service.js';
import { createMediaModule, createMediaUploads } from './modules/media/media.module.js';
import { createMediaRepository } from './modules/media/media.repository.js';
import { createBoardCards } from './modules/board/board-cards.js';
import { createCaseAnnouncer } from './modules/cases/case-announcer.js';
import { createCaseOutbox } from './modules/cases/case-outbox.js';
import { createInboundCaseRepository } from './modules/inbound-case/inbound-case.repository.js';
import { inboundCaseRoutes } from './modules/inbound-case/inbound-case.routes.js';
import { createInboundCaseService } from './modules/inbound-case/inbound-case.service.js';
import { createPushRepository } from './modules/push/push.repository.js';
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
import { createRealtimeRepository } from './modules/realtime/realtime.repository.js';
import { realtimeRoutes } from './modules/realtime/realtime.routes.js';
import { createRealtimeGateway } from './modules/realtime/realtime.service.js';
import { createRedisBroker } from './modules/realtime/redis-broker.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { createTransfersRepository } from './modules/transfers/transfers.repository.js';
import { transfersRoutes } from './modules/transfers/transfers.routes.js';
import { createTransfersService } from './modules/transfers/transfers.service.js';
import { createGuessLimiter } from './modules/transfers/guess-limit.js';
import { createDispatchRepository } from './modules/dispatch/dispatch.repository.js';
import { dispatchRoutes } from './modules/dispatch/dispatch.routes.js';
import { createDispatchService } from './modules/dispatch/dispatch.service.js';
import { createProtocolsModule } from './modules/protocols/protocols.module.js';
import { createActivationRepository } from './modules/activation/activation.repository.js';
import { activationRoutes } from './modules/activation/activation.routes.js';
import { createActivationService } from './modules/activation/activation.service.js';

export type AppConfig = Config & { jwtSecret: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** The real-time gateway's publisher (tests and benchmarks publish through it). */
    realtime: RealtimePublisher;
    /** Runs the team activations' due re-alerts and escalations now (tests move the clock, then tick). */
    teamActivationTick: () => Promise<number>;
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
  /** With WORKERS > 1: this worker's number, sent as `Inbound-Worker` so operators see who answered. */
  worker?: number;
}

/** How often team activations are checked for a due re-alert or escalation (activation.service.ts). */
const ACTIVATION_SWEEP_MS = 5_000;

/** How often open case transfers past their lifetime are expired (and both crews told). */
const TRANSFER_SWEEP_MS = 15_000;

/** A JSON request body larger than this is refused with 413 before it is parsed. */
export const BODY_LIMIT_BYTES = 1_048_576;

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = options.database ?? createDatabase(config);
  const ownsDatabase = !options.database;
  const clock = options.clock ?? systemClock;
  const { db } = database;

  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    genReqId: () => randomUUID(),
    // One line per request (on completion, below) instead of Fastify's two: logging was a tenth of a read.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients (issue 17 item 6): Node answers 408 and closes once a request takes longer.
    requestTimeout: config.timeouts.requestMs,
    http: {
      headersTimeout: Math.min(config.timeouts.headersMs, config.timeouts.requestMs),
      // Node checks the two timeouts on this interval (30 s by default): often enough to enforce them.
      connectionsCheckingInterval: Math.min(1_000, config.timeouts.headersMs),
    },
    // Fastify accepts a hop count at run time; its types list only boolean and addresses.
    trustProxy: config.trustProxy as boolean | string,
    // The spec's paths mix cases (/v4/emsAgencies) and clients add trailing slashes (/questions/).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    // Router errors (a bad URL, an absurdly long id) answered in our error shape, without echoing the URL.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).send({ message: 'The request URL is not valid.', code: 'bad_request' });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.decorateRequest('principal', null);
  // Clients send `Content-Type: application/json` on every call, including body-less POSTs such as
  // sign-out; an empty body is "no body", not an error. Bad JSON is still a 400 (see errors.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const worker = options.worker === undefined ? null : String(options.worker);
  app.addHook('preValidation', refuseUnsafeParameters);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (worker) reply.header('inbound-worker', worker);
  });
  // The completion line holds only the serialized id, method, path and status (logger.ts), nothing a redact
  // path names, so it skips redaction, which was half of the line's cost; the output is the same as
  // request.log's (reqId first). Everything else still logs through the redacting logger.
  const accessLog = app.log.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', async (request, reply) => {
    accessLog.info(
      { reqId: request.id, req: request, res: reply, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });

  // Metrics and readiness first, so the request hook sees every route; the sources are filled in below.
  const metrics = createMetrics({ database: databaseSources(database), defaultMetrics: config.metricsEnabled });
  opsRoutes(app, {
    metrics: config.metricsEnabled ? metrics : null,
    metricsToken: config.metricsToken,
    readiness: readinessChecks(database, () => realtime.brokerPing()),
  });

  await registerSecurityHeaders(app, config.publicUrl, config.mapTileUrl);
  await registerCompression(app);
  // Rate limits and the upload lock, in Redis when several processes share the work (shared-state.ts).
  const shared = await createSharedState(
    config.redisUrl ? { url: config.redisUrl, prefix: config.redisKeyPrefix } : null,
    (error) => app.log.error({ err: { message: error.message } }, 'Redis (shared state) error'),
  );
  // Off for all routes; sign-in turns it on for itself (other routes are limited by authentication).
  await app.register(rateLimit, shared.rateLimit);
  if (config.apiDocs) await registerApiDocs(app, config.brandName);

  // ---- modules -------------------------------------------------------------------------------
  const tokens = createTokenService({ secret: config.jwtSecret, ttlMs: config.tokenTtlMs });
  const passwords = { hash: hashPassword, verify: verifyPassword, verifyAgainstDummy };

  // The real-time gateway: modules publish through `realtime.publisher`; a module owning a channel kind
  // registers its subscription check on `channelAuthorizers` (e.g. 'transfer').
  const channelAuthorizers = createChannelAuthorizers();
  const realtime = createRealtimeGateway({
    repo: createRealtimeRepository(db, () => clock.now().toISOString()),
    clock,
    // An account that must still change its one-time password gets no live data either.
    authenticate: async (authorization) => {
      const principal = await auth.authenticate(authorization);
      if (principal.mustChangePassword) throw unauthorized(PASSWORD_CHANGE_REQUIRED.message);
      return principal;
    },
    reloadPrincipal: (principal) => users.loadPrincipal(principal.userId, principal.sessionId),
    authorizers: channelAuthorizers,
    settings: config.realtime,
    log: app.log,
    onDelivered: metrics.realtimeDelivered,
  });
  metrics.sources.realtime = realtime.stats;
  realtime.useBroker(
    config.redisUrl
      ? await createRedisBroker(config.redisUrl, config.redisKeyPrefix, realtime.brokerListeners, (error) =>
          app.log.error({ err: { message: error.message } }, 'Redis broker error'),
        )
      : createMemoryBroker(),
  );
  app.decorate('realtime', realtime.publisher);

  // Each repository once; services get the ones they read and write.
  const usersRepo = createUsersRepository(db);
  const hospitalsRepo = createHospitalsRepository(db);
  // SQLite commits case writes in groups (one fsync for many); PostgreSQL groups WAL flushes itself.
  const caseTransactions = database.dialect === 'sqlite' ? createGroupCommit(db) : undefined;
  const casesRepo = createCasesRepository(db, caseTransactions);
  const boardRepo = createBoardRepository(db);
  const mediaRepo = createMediaRepository(db);
  const chatRepo = createChatRepository(db, casesRepo.lockForWrite, caseTransactions);
  const displayName = async (userId: string) => (await usersRepo.findById(userId))?.display_name ?? null;

  // Services that call each other do so through closures, resolved at call time.
  const signInThrottle = createSignInThrottle({
    repo: createAuthRepository(db),
    clock,
    accountLimit: config.signInLimits.perAccount,
  });
  const users = createUsersService({
    repo: usersRepo,
    clock,
    passwords,
    throttle: signInThrottle,
    sessions: {
      revokeOtherSessions: (userId, keep) => auth.revokeOtherSessions(userId, keep),
      forgetUser: (userId) => auth.forgetUser(userId),
    },
  });
  const auth = createAuthService({
    repo: createAuthRepository(db),
    tokens,
    clock,
    users,
    passwords,
    throttle: signInThrottle,
    principalCacheMs: config.authCacheMs,
  });
  const hospitals = createHospitalsService({
    repo: hospitalsRepo,
    agencies: { agencyIdsDeliveringTo: (hospitalId) => agencies.agencyIdsDeliveringTo(hospitalId) },
  });
  const agencies = createAgenciesService({ repo: createAgenciesRepository(db), hospitals });
  const complaints = createComplaintsService({ repo: createComplaintsRepository(db), agencies });
  const broadcastStore = createBroadcastsRepository(db);
  const broadcasts = createBroadcastsService({
    repo: broadcastStore,
    clock,
    publisher: realtime.publisher,
    hospitals,
    agencies,
    users: { displayName },
  });
  const feedback = createFeedbackService({ repo: createFeedbackRepository(db), clock });
  // Case events are announced after their commit from the outbox (case-outbox.ts).
  const boardCards = createBoardCards({ repo: boardRepo, complaints });
  const caseOutbox = createCaseOutbox({
    db,
    announce: createCaseAnnouncer({
      publisher: realtime.publisher,
      findCase: (caseId) => casesRepo.findById(caseId),
      hospitalOnPlatform: (hospitalId) => cases.access.hospitalOnPlatform(hospitalId),
      boardCard: boardCards.card,
      upload: createMediaUploads(mediaRepo).upload,
    }),
    logError: (error, what) => app.log.error({ err: { message: (error as Error).message } }, what),
    relay: options.relayOutbox ?? true,
  });
  const cases = createCasesService({
    repo: casesRepo,
    clock,
    agencies,
    complaints,
    hospitals,
    // `transfers` is built further down; it is only called per request, after both exist.
    transfers: { inProgress: (caseId) => transfers.inProgress(caseId) },
    outbox: caseOutbox,
  });

  registerBuiltInChannels(channelAuthorizers, {
    mayReadCase: (principal, caseId) => cases.access.mayRead(principal, caseId),
    agencyIdsDeliveringTo: (hospitalId) => agencies.agencyIdsDeliveringTo(hospitalId),
  });

  const hospitalStatuses = createHospitalStatusService({
    repo: hospitalsRepo,
    clock,
    publisher: realtime.publisher,
  });
  const vapidKeys = loadOrCreateVapidKeys(config.dataDir);
  const push = createPushService({
    repo: createPushRepository(db),
    vapid: {
      ...vapidKeys,
      // RFC 8292: a contact for the push service's operators — the deployment's https address if any.
      subject: config.publicUrl?.startsWith('https://') ? config.publicUrl : 'mailto:push@inbound.invalid',
    },
    participants: cases.access,
    clock,
    connections: realtime.publisher,
    transport: countingPushTransport(options.push?.transport ?? fetchTransport, metrics),
    allowAnyEndpoint: options.push?.allowAnyEndpoint ?? false,
    onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'push not delivered'),
  });
  const chat = createChatService({
    repo: chatRepo,
    participants: cases.access,
    clock,
    publisher: realtime.publisher,
    users: { displayName },
    push: {
      chatMessage(caseId, caseNumber, message) {
        casesRepo.accessUserIds(caseId).then(
          (crews) =>
            push.notify(
              crews.filter((id) => id !== message.senderId),
              (userId) => [`user-${userId}`, `ems-${caseId}`],
              {
                type: 'chat.message',
                title: `Case ${caseNumber}`,
                // The text itself stays off the lock screen: it may carry patient details.
                body: `New message from ${message.senderOrganization || message.senderName}`,
                url: '/case',
                caseId,
                transferId: null,
              },
            ),
          (error: unknown) => app.log.warn({ err: { message: (error as Error).message } }, 'push not delivered'),
        );
      },
    },
  });
  // Transfer codes and dispatched-case numbers share one guess limit.
  const numberGuesses = createGuessLimiter(clock);
  const transfers = createTransfersService({
    repo: createTransfersRepository(db),
    guesses: numberGuesses,
    clock,
    publisher: realtime.publisher,
    cases: casesRepo,
    agencies,
    push: {
      transferRequested(transfer) {
        push.notify([transfer.createdBy], (userId) => [`user-${userId}`, `ems-${transfer.caseId}`], {
          type: 'CASE_TRANSFER_UPDATED',
          title: 'Case transfer',
          body: transfer.messageForSender ?? '',
          url: '/case',
          caseId: transfer.caseId,
          transferId: transfer._id,
        });
      },
    },
  });
  channelAuthorizers.register('transfer', (principal, transferId) =>
    transfers.maySubscribe(principal.userId, transferId),
  );
  // Transfers also expire when read; the sweep tells both crews even when nobody asks.
  const transferSweep = setInterval(() => {
    transfers.expireDue().catch((error: unknown) => {
      app.log.error({ err: { message: (error as Error).message } }, 'transfer expiry sweep failed');
    });
  }, TRANSFER_SWEEP_MS);
  transferSweep.unref();

  // Team activation (issue 15): its re-alerts and escalations are found in the database by the sweep.
  const activation = createActivationService({
    repo: createActivationRepository(db),
    clock,
    access: cases.access,
    cases,
    hospitals,
    publisher: realtime.publisher,
    push,
    displayName,
    onError: (error) => app.log.warn({ err: { message: (error as Error).message } }, 'team alert not delivered'),
  });
  const activationSweep = setInterval(() => {
    activation.tick().catch((error: unknown) => {
      app.log.error({ err: { message: (error as Error).message } }, 'team activation sweep failed');
    });
  }, ACTIVATION_SWEEP_MS);
  activationSweep.unref();
  app.decorate('teamActivationTick', () => activation.tick());

  const ctx: RouteContext = { authenticate: createAuthenticateHook(auth) };
  const media = createMediaModule({
    repo: mediaRepo,
    cases,
    auditHospitalRead: ({ userId, hospitalId, caseId, at }) =>
      boardRepo.recordReads([
        { user_id: userId, hospital_id: hospitalId, case_id: caseId, access: 'media', read_at: at.toISOString() },
      ]),
    clock,
    config: config.media,
    publisher: realtime.publisher,
    secret: config.jwtSecret,
    log: app.log,
    voiceMemoChat: chat.voiceMemos,
    onConversionDone: metrics.conversionDone,
    ...(shared.uploadLocker ? { uploadLocker: shared.uploadLocker } : {}),
    sessionPrincipal: (userId, sessionId) => auth.sessionPrincipal(userId, sessionId),
  });
  metrics.sources.conversionQueue = media.service.queueSize;
  metrics.sources.outboxBacklog = () => caseOutbox.backlog();
  healthRoutes(app, ctx, { database: database.dialect, broker: realtime.brokerKind() });
  consoleSettingsRoutes(app, ctx, { mapTileUrl: config.mapTileUrl });
  fieldErrorRoutes(app, ctx, { metrics, ...config.errorReports });
  authRoutes(app, ctx, auth, config.signInLimits.perAddress);
  usersRoutes(app, ctx, users);
  agenciesRoutes(app, ctx, agencies);
  hospitalsRoutes(app, ctx, hospitals, hospitalStatuses);
  complaintsRoutes(app, ctx, complaints);
  broadcastsRoutes(app, ctx, broadcasts);
  feedbackRoutes(app, ctx, feedback);
  chatRoutes(app, ctx, chat);
  pushRoutes(app, ctx, push);
  transfersRoutes(app, ctx, transfers);
  dispatchRoutes(
    app,
    ctx,
    createDispatchService({
      repo: createDispatchRepository(db),
      clock,
      publisher: realtime.publisher,
      broadcasts,
      broadcastStore,
      agencies,
      complaints,
      cases,
      guesses: numberGuesses,
    }),
  );
  casesRoutes(app, ctx, cases);
  activationRoutes(app, ctx, activation);
  boardRoutes(
    app,
    ctx,
    createBoardService({
      repo: boardRepo,
      audit: createReadAudit((rows) => boardRepo.recordReads(rows)),
      clock,
      complaints,
      agencies,
      access: cases.access,
      cases,
    }),
  );
  adminAuditRoutes(app, ctx, createAdminAuditService(db));
  adminUsersRoutes(
    app,
    ctx,
    createAdminUsersService({
      db,
      clock,
      passwords,
      sessions: { forgetUser: (userId) => auth.forgetUser(userId) },
      publisher: realtime.publisher,
      retentionMs: config.realtime.retentionMs,
      logError: (error, what) => app.log.error({ err: { message: (error as Error).message } }, what),
    }),
  );
  // The catalogue crews work from (agencies, trucks, hospitals, complaint sets), each change audited.
  adminAgenciesRoutes(app, ctx, createAdminAgenciesService({ db, clock }));
  adminTrucksRoutes(app, ctx, createAdminTrucksService({ db, clock }));
  adminHospitalsRoutes(app, ctx, createAdminHospitalsService({ db, clock }));
  adminComplaintSetsRoutes(app, ctx, createAdminComplaintSetsService({ db, clock }));
  await media.routes(app, ctx);
  createProtocolsModule({
    db,
    clock,
    config,
    secret: config.jwtSecret,
    caseView: (principal, caseId) => cases.get(principal, caseId),
    complaintSet: async (caseId) => {
      const row = await casesRepo.findById(caseId);
      return row ? complaints.setById(row.complaint_set_id) : null;
    },
    isAgencyMember: async (userId, agencyId) =>
      (await users.loadPrincipal(userId, 'protocol-link'))?.teamIds.includes(agencyId) ?? false,
    log: app.log,
  }).routes(app, ctx);
  inboundCaseRoutes(
    app,
    ctx,
    createInboundCaseService({
      repo: createInboundCaseRepository(db),
      clock,
      access: cases.access,
      media: media.service,
      chat,
    }),
  );
  await realtimeRoutes(app, ctx, realtime, {
    maxFrameBytes: config.realtime.maxFrameBytes,
    publicUrl: config.publicUrl,
    allowedOrigins: config.realtime.allowedOrigins,
  });

  await registerStaticApps(app, { crewDist: config.crewDist, hospitalDist: config.hospitalDist });

  app.addHook('onClose', async () => {
    clearInterval(transferSweep);
    clearInterval(activationSweep);
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
