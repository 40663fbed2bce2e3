import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ChargeNurseService } from './charge-nurse.service.js';

export function chargeNurseRoutes(app: FastifyInstance, ctx: RouteContext, chargeNurses: ChargeNurseService): void {
  bindRoute(app, ctx, routes.chargeNurses, ({ principal, params }) => chargeNurses.list(principal, params.id));
  bindRoute(app, ctx, routes.setChargeNurses, ({ principal, params, body }) =>
    chargeNurses.set(principal, params.id, body),
  );
  bindRoute(app, ctx, routes.myOffloadAlerts, ({ principal }) => chargeNurses.mine(principal));
}
