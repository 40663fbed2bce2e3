import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ComplaintsService } from './complaints.service.js';

export function complaintsRoutes(app: FastifyInstance, ctx: RouteContext, complaints: ComplaintsService): void {
  bindRoute(app, ctx, routes.complaintSets, ({ principal, query }) => complaints.findByName(principal, query));
}
