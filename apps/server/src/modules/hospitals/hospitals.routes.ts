import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { HospitalStatusService } from './hospital-statuses.service.js';
import type { HospitalsService } from './hospitals.service.js';

export function hospitalsRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  hospitals: HospitalsService,
  statuses: HospitalStatusService,
): void {
  bindRoute(app, ctx, routes.hospital, ({ principal, params }) => hospitals.getHospital(principal, params.id));
  bindRoute(app, ctx, routes.hospitalStatuses, ({ principal, params }) => hospitals.getStatuses(principal, params.id));
  bindRoute(
    app,
    ctx,
    routes.setHospitalStatus,
    ({ principal, params, body }) => statuses.set(principal, params.id, body),
    {
      status: 201,
    },
  );
  bindRoute(app, ctx, routes.clearHospitalStatus, ({ principal, params }) =>
    statuses.clear(principal, params.id, params.statusId),
  );
}
