import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { HospitalsService } from './hospitals.service.js';

export function hospitalsRoutes(app: FastifyInstance, ctx: RouteContext, hospitals: HospitalsService): void {
  bindRoute(app, ctx, routes.hospital, ({ principal, params }) => hospitals.getHospital(principal, params.id));
  bindRoute(app, ctx, routes.hospitalStatuses, ({ principal, params }) => hospitals.getStatuses(principal, params.id));
}
