import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { writeContext } from '../cases/write-context.js';
import type { BroadcastsService } from './broadcasts.service.js';

export function broadcastsRoutes(app: FastifyInstance, ctx: RouteContext, broadcasts: BroadcastsService): void {
  bindRoute(app, ctx, routes.broadcastChannels, ({ principal }) => broadcasts.channels(principal));
  bindRoute(app, ctx, routes.broadcasts, ({ principal }) => broadcasts.list(principal));
  bindRoute(app, ctx, routes.sentBroadcasts, ({ principal, params, query }) =>
    broadcasts.sent(principal, params.id, query),
  );
  bindRoute(app, ctx, routes.broadcastRecipients, ({ principal, params }) =>
    broadcasts.recipients(principal, params.id),
  );
  bindRoute(
    app,
    ctx,
    routes.sendBroadcast,
    async ({ principal, body, request, reply }) => {
      const result = await broadcasts.send(principal, writeContext(request), body);
      // A replay's body is the first answer's; the header says it is one (as for case writes).
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      return result.body;
    },
    { status: 201 },
  );
}
