import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminAgenciesService } from './agencies.service.js';

/** Agency administration (organisation admins; the service checks). */
export function adminAgenciesRoutes(app: FastifyInstance, ctx: RouteContext, agencies: AdminAgenciesService): void {
  bindRoute(app, ctx, routes.adminAgencies, async ({ principal }) => ({ agencies: await agencies.list(principal) }));
  bindRoute(app, ctx, routes.adminAgency, ({ principal, params }) => agencies.get(principal, params.id));
  bindRoute(app, ctx, routes.adminCreateAgency, ({ principal, body }) => agencies.create(principal, body), {
    status: 201,
  });
  bindRoute(app, ctx, routes.adminUpdateAgency, ({ principal, params, body }) =>
    agencies.update(principal, params.id, body),
  );
}
