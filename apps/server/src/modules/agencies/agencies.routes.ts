import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AgenciesService } from './agencies.service.js';

export function agenciesRoutes(app: FastifyInstance, ctx: RouteContext, agencies: AgenciesService): void {
  // Reference data the crew app reads at every start: validated and serialized once per content.
  bindRoute(app, ctx, routes.team, ({ principal, params }) => agencies.getTeam(principal, params.id), {
    serializeOnce: true,
  });
  bindRoute(app, ctx, routes.trucks, ({ principal, params }) => agencies.getTrucks(principal, params.id), {
    serializeOnce: true,
  });
}
