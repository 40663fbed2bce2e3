import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { clientAddress } from '../../http/client-address.js';
import type { MfaService } from './mfa.service.js';

export function mfaRoutes(app: FastifyInstance, ctx: RouteContext, mfa: MfaService): void {
  bindRoute(app, ctx, routes.mfaStatus, async ({ principal }) => {
    // The roles as stored, not as narrowed for this session: "required" is about the account.
    const roles =
      principal.mfaVerified || principal.mfaEnrolmentRequired
        ? principal.roles
        : await mfa.storedRoles(principal.userId);
    return mfa.status(principal, principal.mfaVerified === true, roles);
  });
  bindRoute(app, ctx, routes.totpSetup, ({ principal, body, request }) =>
    mfa.setup(principal, body.password, clientAddress(request)),
  );
  bindRoute(app, ctx, routes.totpConfirm, ({ principal, body, request }) =>
    mfa.confirm(principal, body.code, clientAddress(request)),
  );
  bindRoute(app, ctx, routes.reauth, ({ principal, body, request }) =>
    mfa.reauth(principal, body, clientAddress(request)),
  );
  bindRoute(app, ctx, routes.regenerateRecoveryCodes, ({ principal, body, request }) =>
    mfa.regenerateRecoveryCodes(principal, body.password, clientAddress(request)),
  );
  bindRoute(app, ctx, routes.adminClearUserMfa, ({ principal, params }) => mfa.clearUserFactors(principal, params.id));
  bindRoute(app, ctx, routes.webAuthnRegisterOptions, ({ principal, body, request }) =>
    mfa.webAuthnRegisterOptions(principal, body.password, clientAddress(request)),
  );
  bindRoute(app, ctx, routes.webAuthnRegister, ({ principal, body }) => mfa.webAuthnRegister(principal, body));
  bindRoute(app, ctx, routes.webAuthnCredentials, ({ principal }) => mfa.webAuthnCredentials(principal));
  bindRoute(app, ctx, routes.webAuthnRemoveCredential, ({ principal, params }) =>
    mfa.webAuthnRemove(principal, params.credentialId),
  );
  bindRoute(app, ctx, routes.orgSecuritySettings, ({ principal }) => mfa.getSettings(principal));
  bindRoute(app, ctx, routes.updateOrgSecuritySettings, ({ principal, body }) => mfa.putSettings(principal, body));
}
