import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { BroadcastsService } from './broadcasts.service.js';

export function broadcastsRoutes(app: FastifyInstance, ctx: RouteContext, broadcasts: BroadcastsService): void {
  bindRoute(app, ctx, routes.broadcastChannels, ({ principal }) => broadcasts.channels(principal));
  bindRoute(app, ctx, routes.broadcasts, ({ principal }) => broadcasts.list(principal));
  bindRoute(app, ctx, routes.sendBroadcast, ({ principal, body }) => broadcasts.send(principal, body), {
    status: 201,
  });
}
