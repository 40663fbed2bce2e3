import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { writeContext } from '../cases/write-context.js';
import type { ChatService } from './chat.service.js';

export function chatRoutes(app: FastifyInstance, ctx: RouteContext, chat: ChatService): void {
  bindRoute(app, ctx, routes.chatMessages, ({ principal, params }) => chat.list(principal, params.id));
  bindRoute(
    app,
    ctx,
    routes.postChatMessage,
    async ({ principal, params, body, request, reply }) => {
      const result = await chat.post(principal, writeContext(request), params.id, body);
      // A replay answers the first answer's body; the header says so, as for case writes.
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      return result.body;
    },
    { status: 201 },
  );
  bindRoute(app, ctx, routes.chatMessageDelivered, ({ principal, params }) =>
    chat.delivered(principal, params.id, params.messageId),
  );
  bindRoute(app, ctx, routes.chatMessageRead, ({ principal, params }) =>
    chat.read(principal, params.id, params.messageId),
  );
}
