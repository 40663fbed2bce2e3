import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { HandoffWatchService } from './handoff-watch.service.js';

export function handoffWatchRoutes(app: FastifyInstance, ctx: RouteContext, watches: HandoffWatchService): void {
  bindRoute(app, ctx, routes.issueHandoffWatch, ({ principal, params, request }) => {
    const key = request.headers['idempotency-key'];
    return watches.issue(principal, params.id, typeof key === 'string' && key !== '' ? key : null);
  });
  bindRoute(app, ctx, routes.handoffWatchStatus, ({ principal, body }) => watches.status(principal, body.token));
}
