import type { FastifyInstance } from 'fastify';
import { COMPLAINT_SET_IMPORT_MAX_BYTES, routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminComplaintSetsService } from './complaint-sets.service.js';

/** Complaint-set export and import (organisation admins; the service checks). */
export function adminComplaintSetsRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  sets: AdminComplaintSetsService,
): void {
  bindRoute(app, ctx, routes.adminComplaintSets, async ({ principal }) => ({ sets: await sets.list(principal) }));
  bindRoute(app, ctx, routes.adminExportComplaintSet, ({ principal, query }) => sets.exportSet(principal, query.name));
  // A whole set is larger than an ordinary request body.
  bindRoute(app, ctx, routes.adminImportComplaintSet, ({ principal, body }) => sets.importSet(principal, body), {
    status: 201,
    bodyLimit: COMPLAINT_SET_IMPORT_MAX_BYTES,
  });
}
