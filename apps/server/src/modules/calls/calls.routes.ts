import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { CallsService } from './calls.service.js';

export function callsRoutes(app: FastifyInstance, ctx: RouteContext, calls: CallsService): void {
  bindRoute(app, ctx, routes.voipToken, ({ principal, params }) => calls.token(principal, params.id));
  bindRoute(app, ctx, routes.startCall, ({ principal, body }) => calls.start(principal, body.caseId), {
    status: 201,
  });
  bindRoute(app, ctx, routes.ringingCalls, ({ principal, params }) => calls.ringing(principal, params.id));
  bindRoute(app, ctx, routes.answerCall, ({ principal, params }) => calls.answer(principal, params.callId));
  bindRoute(app, ctx, routes.signalCall, ({ principal, params, body }) => calls.signal(principal, params.callId, body));
  bindRoute(app, ctx, routes.endCall, ({ principal, params, body }) =>
    calls.end(principal, params.callId, body.reason),
  );
  bindRoute(app, ctx, routes.callAlive, ({ principal, params }) => calls.alive(principal, params.callId));
  bindRoute(app, ctx, routes.getCall, ({ principal, params }) => calls.get(principal, params.callId));
}
