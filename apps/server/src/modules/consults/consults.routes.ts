import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ConsultsService } from './consults.service.js';

export function consultsRoutes(app: FastifyInstance, ctx: RouteContext, consults: ConsultsService): void {
  bindRoute(app, ctx, routes.consultRoom, ({ principal, params }) => consults.room(principal, params.id));
  bindRoute(app, ctx, routes.joinConsult, ({ principal, body }) => consults.join(principal, body.caseId), {
    status: 201,
  });
  bindRoute(app, ctx, routes.consultPresence, ({ principal, params, body }) =>
    consults.presence(principal, params.consultId, body.participantId),
  );
  bindRoute(app, ctx, routes.signalConsult, ({ principal, params, body }) =>
    consults.signal(principal, params.consultId, body),
  );
  bindRoute(app, ctx, routes.leaveConsult, ({ principal, params, body }) =>
    consults.leave(principal, params.consultId, body.participantId),
  );
  bindRoute(app, ctx, routes.getConsult, ({ principal, params }) => consults.get(principal, params.consultId));
}
