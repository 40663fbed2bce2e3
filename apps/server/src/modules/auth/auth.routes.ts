import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { routes, serverMessages } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { tooManyRequests } from '../../errors.js';
import type { AuthService } from './auth.service.js';

/** The hook every authenticated route runs first: no principal, no further work (not even body parsing). */
export function createAuthenticateHook(auth: AuthService): onRequestAsyncHookHandler {
  return async (request) => {
    request.principal = await auth.authenticate(request.headers.authorization);
  };
}

export function authRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  auth: AuthService,
  addressLimit: { max: number; windowMs: number },
): void {
  bindRoute(app, ctx, routes.signIn, ({ body }) => auth.signIn(body), {
    rateLimit: {
      max: addressLimit.max,
      timeWindow: addressLimit.windowMs,
      errorResponseBuilder: () => tooManyRequests(serverMessages.tooManySignIns),
    },
  });
  bindRoute(app, ctx, routes.signOut, ({ principal }) => auth.signOut(principal));
}
