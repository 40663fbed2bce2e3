import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { TransfersService } from './transfers.service.js';

/** Guessing a live six-digit code is the attack on transfers; a person types a code a few times a minute. */
export const TRANSFER_REQUESTS_PER_MINUTE = 30;

export function transfersRoutes(app: FastifyInstance, ctx: RouteContext, transfers: TransfersService): void {
  bindRoute(app, ctx, routes.createTransfer, ({ principal, body }) => transfers.create(principal, body.caseId), {
    status: 201,
  });
  bindRoute(app, ctx, routes.getTransfer, ({ principal, params }) => transfers.get(principal, params.id));
  bindRoute(
    app,
    ctx,
    routes.requestTransfer,
    ({ principal, params, body }) => transfers.request(principal, params.code, body),
    { rateLimit: { max: TRANSFER_REQUESTS_PER_MINUTE, timeWindow: 60_000 } },
  );
  bindRoute(app, ctx, routes.acceptTransferRequest, ({ principal, params }) => transfers.accept(principal, params.id));
  bindRoute(app, ctx, routes.denyTransferRequest, ({ principal, params }) => transfers.deny(principal, params.id));
  bindRoute(app, ctx, routes.cancelTransfer, ({ principal, params, body }) =>
    transfers.cancel(principal, params.id, body?.reason ?? 'user'),
  );
  bindRoute(app, ctx, routes.cancelTransferRequest, ({ principal, params }) =>
    transfers.cancelRequest(principal, params.id),
  );
  bindRoute(app, ctx, routes.transferReceived, ({ principal, params }) => transfers.received(principal, params.id));
  bindRoute(app, ctx, routes.acknowledgeTransfer, ({ principal, params }) =>
    transfers.acknowledge(principal, params.id),
  );
}
