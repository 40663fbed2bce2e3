import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminAuditService } from './audit.js';

export function adminAuditRoutes(app: FastifyInstance, ctx: RouteContext, audit: AdminAuditService): void {
  bindRoute(app, ctx, routes.adminAuditLog, ({ principal, query }) => audit.list(principal, query));
}
