import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ArrivalService } from './arrival.service.js';

export function arrivalRoutes(app: FastifyInstance, ctx: RouteContext, arrival: ArrivalService): void {
  bindRoute(app, ctx, routes.markArrived, ({ principal, params }) =>
    arrival.markArrived(principal, params.id, params.caseId),
  );
  bindRoute(app, ctx, routes.acceptHandoff, ({ principal, params }) =>
    arrival.acceptHandoff(principal, params.id, params.caseId),
  );
  bindRoute(app, ctx, routes.divertCase, ({ principal, params, body }) =>
    arrival.divert(principal, params.id, params.caseId, body.reason),
  );
  bindRoute(app, ctx, routes.divertedAway, ({ principal, params }) => arrival.divertedAway(principal, params.id));
  bindRoute(app, ctx, routes.arrivalSettings, ({ principal, params }) => arrival.settings(principal, params.id));
  bindRoute(app, ctx, routes.updateArrivalSettings, ({ principal, params, body }) =>
    arrival.updateSettings(principal, params.id, body),
  );
  bindRoute(app, ctx, routes.offloadReport, ({ principal, params, query }) =>
    arrival.report(principal, params.id, query),
  );
}
