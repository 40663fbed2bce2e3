import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { BoardService } from './board.service.js';

export function boardRoutes(app: FastifyInstance, ctx: RouteContext, board: BoardService): void {
  bindRoute(app, ctx, routes.inboundBoard, ({ principal, params }) => board.board(principal, params.id));
  bindRoute(app, ctx, routes.inboundCase, ({ principal, params }) => board.detail(principal, params.id, params.caseId));
  bindRoute(app, ctx, routes.acknowledgeCase, ({ principal, params }) =>
    board.acknowledge(principal, params.id, params.caseId),
  );
}
