import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AuditTrailService } from './audit-trail.js';

export function auditTrailRoutes(app: FastifyInstance, ctx: RouteContext, trail: AuditTrailService): void {
  bindRoute(app, ctx, routes.adminAuditTrail, ({ principal, query }) => trail.list(principal, query));
  bindRoute(app, ctx, routes.adminAuditVerify, ({ principal }) => trail.verify(principal));
}
