import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { AdminUsersService } from './admin-users.service.js';

export function adminUsersRoutes(app: FastifyInstance, ctx: RouteContext, users: AdminUsersService): void {
  bindRoute(app, ctx, routes.adminUsers, ({ principal, query }) => users.list(principal, query));
  bindRoute(app, ctx, routes.adminMembershipOptions, ({ principal }) => users.options(principal));
  bindRoute(app, ctx, routes.adminUser, ({ principal, params }) => users.get(principal, params.id));
  bindRoute(app, ctx, routes.inviteUser, ({ principal, body }) => users.invite(principal, body), { status: 201 });
  bindRoute(app, ctx, routes.updateUser, ({ principal, params, body }) => users.update(principal, params.id, body));
  bindRoute(app, ctx, routes.resetUserPassword, ({ principal, params }) => users.resetPassword(principal, params.id));
  bindRoute(app, ctx, routes.disableUser, ({ principal, params }) => users.setDisabled(principal, params.id, true));
  bindRoute(app, ctx, routes.enableUser, ({ principal, params }) => users.setDisabled(principal, params.id, false));
}
