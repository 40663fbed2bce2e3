import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AgenciesService } from './agencies.service.js';

export function agenciesRoutes(app: FastifyInstance, ctx: RouteContext, agencies: AgenciesService): void {
  bindRoute(app, ctx, routes.team, ({ principal, params }) => agencies.getTeam(principal, params.id));
  bindRoute(app, ctx, routes.trucks, ({ principal, params }) => agencies.getTrucks(principal, params.id));
}
