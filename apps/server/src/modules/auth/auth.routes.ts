import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { MFA_ENROLMENT_REQUIRED, PASSWORD_CHANGE_REQUIRED, routes, serverMessages } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { clientAddress } from '../../http/client-address.js';
import { AppError, tooManyRequests } from '../../errors.js';
import type { AuthService } from './auth.service.js';

/** What an account that still has an administrator's one-time password may call: who am I, sign out, change it. */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set<string>([
  routes.me.path,
  routes.signOut.path,
  routes.changePassword.path,
]);

/** What a console session that must still set up MFA may call (mfa.ts). */
const ALLOWED_BEFORE_MFA_ENROLMENT = new Set<string>([
  routes.me.path,
  routes.signOut.path,
  routes.changePassword.path,
  routes.mfaStatus.path,
  routes.totpSetup.path,
  routes.totpConfirm.path,
  routes.webAuthnRegisterOptions.path,
  routes.webAuthnRegister.path,
  routes.webAuthnCredentials.path,
]);

/** The hook every authenticated route runs first: no principal, no further work (not even body parsing). */
export function createAuthenticateHook(auth: AuthService): onRequestAsyncHookHandler {
  return async (request) => {
    const principal = await auth.authenticate(request.headers.authorization);
    if (principal.mustChangePassword && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(request.routeOptions.url ?? '')) {
      throw new AppError(403, PASSWORD_CHANGE_REQUIRED.code, PASSWORD_CHANGE_REQUIRED.message);
    }
    if (principal.mfaEnrolmentRequired && !ALLOWED_BEFORE_MFA_ENROLMENT.has(request.routeOptions.url ?? '')) {
      throw new AppError(403, MFA_ENROLMENT_REQUIRED.code, MFA_ENROLMENT_REQUIRED.message);
    }
    request.principal = principal;
  };
}

export function authRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  auth: AuthService,
  addressLimit: { max: number; windowMs: number },
): void {
  bindRoute(app, ctx, routes.signIn, ({ body, request }) => auth.signIn(body, clientAddress(request)), {
    rateLimit: {
      max: addressLimit.max,
      timeWindow: addressLimit.windowMs,
      keyGenerator: clientAddress,
      errorResponseBuilder: () => tooManyRequests(serverMessages.tooManySignIns),
    },
  });
  bindRoute(
    app,
    ctx,
    routes.webAuthnSignInOptions,
    ({ body, request }) => auth.webAuthnSignInOptions(body, clientAddress(request)),
    {
      rateLimit: {
        max: addressLimit.max,
        timeWindow: addressLimit.windowMs,
        keyGenerator: clientAddress,
        errorResponseBuilder: () => tooManyRequests(serverMessages.tooManySignIns),
      },
    },
  );
  bindRoute(app, ctx, routes.signOut, ({ principal }) => auth.signOut(principal));
}
