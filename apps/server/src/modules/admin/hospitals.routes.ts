import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminHospitalsService } from './hospitals.service.js';

/** Hospital administration (organisation admins; the service checks). */
export function adminHospitalsRoutes(app: FastifyInstance, ctx: RouteContext, hospitals: AdminHospitalsService): void {
  bindRoute(app, ctx, routes.adminHospitals, async ({ principal }) => ({ hospitals: await hospitals.list(principal) }));
  bindRoute(app, ctx, routes.adminHospital, ({ principal, params }) => hospitals.get(principal, params.id));
  bindRoute(app, ctx, routes.adminCreateHospital, ({ principal, body }) => hospitals.create(principal, body), {
    status: 201,
  });
  bindRoute(app, ctx, routes.adminUpdateHospital, ({ principal, params, body }) =>
    hospitals.update(principal, params.id, body),
  );
}
