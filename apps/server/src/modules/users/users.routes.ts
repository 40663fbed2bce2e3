import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: FastifyInstance, ctx: RouteContext, users: UsersService): void {
  bindRoute(app, ctx, routes.me, ({ principal }) => users.me(principal));
  bindRoute(app, ctx, routes.changePassword, ({ principal, body }) => users.changePassword(principal, body));
}
