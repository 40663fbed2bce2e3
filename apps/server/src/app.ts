/**
 * The composition root: builds the whole server from a config object. Every module is listed below
 * in one place — its repository, its service (with the services it may call) and its routes — and
 * `close` undoes what `buildApp` opened.
 */
import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, type Database } from './db/database.js';
import { createGroupCommit } from './db/group-commit.js';
import { badRequest, errorHandler } from './errors.js';
import { registerApiDocs } from './http/api-docs.js';
import type { RouteContext } from './http/bind-route.js';
import { registerSecurityHeaders } from './http/security.js';
import { registerStaticApps } from './http/static-apps.js';
import { loggerOptions } from './logger.js';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.js';
import { agenciesRoutes } from './modules/agencies/agencies.routes.js';
import { createAgenciesService } from './modules/agencies/agencies.service.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes, createAuthenticateHook } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './modules/auth/passwords.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createBroadcastsRepository } from './modules/broadcasts/broadcasts.repository.js';
import { broadcastsRoutes } from './modules/broadcasts/broadcasts.routes.js';
import { createBroadcastsService } from './modules/broadcasts/broadcasts.service.js';
import { createCasesRepository } from './modules/cases/cases.repository.js';
import { casesRoutes } from './modules/cases/cases.routes.js';
import { createCasesService } from './modules/cases/cases.service.js';
import { createComplaintsRepository } from './modules/complaints/complaints.repository.js';
import { complaintsRoutes } from './modules/complaints/complaints.routes.js';
import { createComplaintsService } from './modules/complaints/complaints.service.js';
import { createFeedbackRepository } from './modules/feedback/feedback.repository.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createHospitalsRepository } from './modules/hospitals/hospitals.repository.js';
import { hospitalsRoutes } from './modules/hospitals/hospitals.routes.js';
import { createHospitalsService } from './modules/hospitals/hospitals.service.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';

export type AppConfig = Config & { jwtSecret: string };

export interface BuildOptions {
  /** An open database; when absent the app opens one from the config and closes it on close. */
  database?: Database;
  clock?: Clock;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
}

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
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('The request body is not valid JSON.'), undefined);
    }
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, ms: Math.round(reply.elapsedTime) }, 'request completed');
  });

  await registerSecurityHeaders(app, config.publicUrl);
  // Off for all routes; sign-in turns it on for itself (other routes are limited by authentication).
  await app.register(rateLimit, { global: false });
  await registerApiDocs(app, config.brandName);

  // ---- modules -------------------------------------------------------------------------------
  const tokens = createTokenService({ secret: config.jwtSecret, ttlMs: config.tokenTtlMs });
  const passwords = { hash: hashPassword, verify: verifyPassword, verifyAgainstDummy };

  // Services that call each other do so through closures, resolved at call time.
  const users = createUsersService({
    repo: createUsersRepository(db),
    clock,
    passwords,
    sessions: { revokeOtherSessions: (userId, keep) => auth.revokeOtherSessions(userId, keep) },
  });
  const auth = createAuthService({
    repo: createAuthRepository(db),
    tokens,
    clock,
    users,
    passwords,
    accountLimit: config.signInLimits.perAccount,
    principalCacheMs: config.authCacheMs,
  });
  const hospitals = createHospitalsService({
    repo: createHospitalsRepository(db),
    agencies: { agencyIdsDeliveringTo: (hospitalId) => agencies.agencyIdsDeliveringTo(hospitalId) },
  });
  const agencies = createAgenciesService({ repo: createAgenciesRepository(db), hospitals });
  const complaints = createComplaintsService({ repo: createComplaintsRepository(db), agencies });
  const broadcasts = createBroadcastsService({ repo: createBroadcastsRepository(db) });
  const feedback = createFeedbackService({ repo: createFeedbackRepository(db), clock });
  // SQLite commits case writes in groups (one fsync for many); PostgreSQL groups WAL flushes itself.
  const caseTransactions = database.dialect === 'sqlite' ? createGroupCommit(db) : undefined;
  const cases = createCasesService({
    repo: createCasesRepository(db, caseTransactions),
    clock,
    agencies,
    complaints,
    hospitals,
  });

  const ctx: RouteContext = { authenticate: createAuthenticateHook(auth) };
  healthRoutes(app, ctx, { database: database.dialect, broker: 'memory' });
  authRoutes(app, ctx, auth, config.signInLimits.perAddress);
  usersRoutes(app, ctx, users);
  agenciesRoutes(app, ctx, agencies);
  hospitalsRoutes(app, ctx, hospitals);
  complaintsRoutes(app, ctx, complaints);
  broadcastsRoutes(app, ctx, broadcasts);
  feedbackRoutes(app, ctx, feedback);
  casesRoutes(app, ctx, cases);

  await registerStaticApps(app, { crewDist: config.crewDist, hospitalDist: config.hospitalDist });

  app.addHook('onClose', async () => {
    if (ownsDatabase) await database.close();
  });
  await app.ready();
  return app;
}
