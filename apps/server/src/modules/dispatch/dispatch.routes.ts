import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { writeContext } from '../cases/write-context.js';
import type { DispatchService } from './dispatch.service.js';

export function dispatchRoutes(app: FastifyInstance, ctx: RouteContext, dispatch: DispatchService): void {
  bindRoute(app, ctx, routes.dispatchOptions, ({ principal, params }) => dispatch.options(principal, params.id));
  bindRoute(app, ctx, routes.dispatches, ({ principal, params }) => dispatch.list(principal, params.id));
  bindRoute(
    app,
    ctx,
    routes.createDispatch,
    async ({ principal, params, body, request, reply }) => {
      const result = await dispatch.create(principal, writeContext(request), params.id, body);
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      return result.body;
    },
    { status: 201 },
  );
  bindRoute(app, ctx, routes.cancelDispatch, ({ principal, params }) =>
    dispatch.cancel(principal, params.id, params.dispatchId),
  );
  bindRoute(app, ctx, routes.claimDispatch, ({ principal, params, body }) =>
    dispatch.claim(principal, params.caseNumber, body),
  );
}
