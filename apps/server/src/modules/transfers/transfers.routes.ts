import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { TransfersService } from './transfers.service.js';

export function transfersRoutes(app: FastifyInstance, ctx: RouteContext, transfers: TransfersService): void {
  bindRoute(app, ctx, routes.createTransfer, ({ principal, body }) => transfers.create(principal, body.caseId), {
    status: 201,
  });
  bindRoute(app, ctx, routes.getTransfer, ({ principal, params }) => transfers.get(principal, params.id));
  bindRoute(app, ctx, routes.requestTransfer, ({ principal, params, body }) =>
    transfers.request(principal, params.code, body),
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
