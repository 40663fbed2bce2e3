/** The protocol assistant, assembled: library (import + per-agency index), service and routes. */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Case } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { RouteContext } from '../../http/bind-route.js';
import type { Principal } from '../auth/principal.js';
import type { PublishedSet } from '../complaints/complaints.service.js';
import { describeCase } from './case-context.js';
import { createProtocolImports } from './imports.js';
import { createImportsRepository } from './imports.repository.js';
import { protocolImportsRoutes } from './imports.routes.js';
import { createProtocolLibrary } from './library.js';
import { readPdfInChild } from './pdf-child.js';
import { createProtocolsRepository } from './protocols.repository.js';
import { protocolsRoutes } from './protocols.routes.js';
import { createProtocolsService } from './protocols.service.js';

/** A model that has not answered in this time is abandoned for the extractive answer. */
const MODEL_TIMEOUT_MS = 20_000;

export function protocolFilesDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'protocols');
}

export function createProtocolsModule(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'llm'>;
  secret: string;
  /** The case as its crew sees it, and the complaint set it was started with. */
  caseView: (principal: Principal, caseId: string) => Promise<Case>;
  complaintSet: (caseId: string) => Promise<PublishedSet | null>;
  /** Whether the user (enabled) is on the agency's team: checked when a cited page is opened. */
  isAgencyMember: (userId: string, agencyId: string) => Promise<boolean>;
  log: { warn: (detail: Record<string, unknown>, message: string) => void };
}) {
  const repo = createProtocolsRepository(deps.db);
  const library = createProtocolLibrary({ repo, clock: deps.clock, filesDir: protocolFilesDir(deps.config) });
  const { llm } = deps.config;
  const service = createProtocolsService({
    repo,
    library,
    clock: deps.clock,
    secret: deps.secret,
    llm: llm?.model
      ? { baseUrl: llm.baseUrl, model: llm.model, apiKey: llm.apiKey, timeoutMs: MODEL_TIMEOUT_MS }
      : null,
    async caseContext(principal, caseId) {
      const view = await deps.caseView(principal, caseId);
      return describeCase(view, (await deps.complaintSet(caseId))?.complaints ?? null);
    },
    isAgencyMember: deps.isAgencyMember,
    logWarning: (message, detail) => deps.log.warn(detail, message),
  });
  const imports = createProtocolImports({
    repo: createImportsRepository(deps.db),
    library,
    clock: deps.clock,
    uploadsDir: path.join(protocolFilesDir(deps.config), 'uploads'),
    readPdf: readPdfInChild,
    log: deps.log,
  });
  return {
    library,
    service,
    imports,
    routes: (app: FastifyInstance, ctx: RouteContext) => {
      protocolsRoutes(app, ctx, service);
      protocolImportsRoutes(app, ctx, imports);
    },
  };
}
