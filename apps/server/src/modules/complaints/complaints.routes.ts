import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ComplaintsService } from './complaints.service.js';

export function complaintsRoutes(app: FastifyInstance, ctx: RouteContext, complaints: ComplaintsService): void {
  // The largest answer of the API, changed only by publishing a new version: serialized once per content.
  bindRoute(app, ctx, routes.complaintSets, ({ principal, query }) => complaints.findByName(principal, query), {
    serializeOnce: true,
  });
}
