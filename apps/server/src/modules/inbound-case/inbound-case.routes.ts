import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { InboundCaseService } from './inbound-case.service.js';

export function inboundCaseRoutes(app: FastifyInstance, ctx: RouteContext, service: InboundCaseService): void {
  bindRoute(app, ctx, routes.inboundCaseMedia, ({ principal, params }) =>
    service.media(principal, params.id, params.caseId),
  );
  bindRoute(app, ctx, routes.inboundCaseChat, ({ principal, params }) =>
    service.chat(principal, params.id, params.caseId),
  );
  bindRoute(app, ctx, routes.inboundCaseFeedback, ({ principal, params }) =>
    service.feedback(principal, params.id, params.caseId),
  );
}
