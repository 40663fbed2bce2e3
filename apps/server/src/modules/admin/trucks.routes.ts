import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminTrucksService } from './trucks.service.js';

/** An agency's trucks (organisation admins; the service checks). */
export function adminTrucksRoutes(app: FastifyInstance, ctx: RouteContext, trucks: AdminTrucksService): void {
  bindRoute(app, ctx, routes.adminAddTruck, ({ principal, params, body }) => trucks.add(principal, params.id, body), {
    status: 201,
  });
  bindRoute(app, ctx, routes.adminUpdateTruck, ({ principal, params, body }) =>
    trucks.update(principal, params.id, params.truckId, body),
  );
  bindRoute(app, ctx, routes.adminRemoveTruck, ({ principal, params }) =>
    trucks.remove(principal, params.id, params.truckId),
  );
}
