import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { clientAddress } from '../../http/client-address.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: FastifyInstance, ctx: RouteContext, users: UsersService): void {
  // Read at every app start and on every token check of the crew app; the same few hundred bytes per user
  // until an edit: validated and serialized once per content (one entry per active user).
  bindRoute(app, ctx, routes.me, ({ principal }) => users.me(principal), { serializeOnce: { maxEntries: 5_000 } });
  bindRoute(app, ctx, routes.changePassword, ({ principal, body, request }) =>
    users.changePassword(principal, body, clientAddress(request)),
  );
}
