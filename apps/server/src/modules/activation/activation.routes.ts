import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { ActivationService } from './activation.service.js';

export function activationRoutes(app: FastifyInstance, ctx: RouteContext, activation: ActivationService): void {
  bindRoute(app, ctx, routes.hospitalTeams, ({ principal, params }) => activation.teams(principal, params.id));
  bindRoute(
    app,
    ctx,
    routes.createTeam,
    ({ principal, params, body }) => activation.createTeam(principal, params.id, body),
    { status: 201 },
  );
  bindRoute(app, ctx, routes.updateTeam, ({ principal, params, body }) =>
    activation.updateTeam(principal, params.id, params.teamId, body),
  );
  bindRoute(app, ctx, routes.deleteTeam, ({ principal, params }) =>
    activation.deleteTeam(principal, params.id, params.teamId),
  );
  bindRoute(app, ctx, routes.hospitalActivations, ({ principal, params }) =>
    activation.hospitalActivations(principal, params.id),
  );
  bindRoute(app, ctx, routes.caseActivations, ({ principal, params }) =>
    activation.caseActivations(principal, params.id, params.caseId),
  );
  bindRoute(
    app,
    ctx,
    routes.activateTeam,
    ({ principal, params, body }) => activation.activate(principal, params.id, params.caseId, body.teamId),
    { status: 201 },
  );
  bindRoute(app, ctx, routes.standDownActivation, ({ principal, params }) =>
    activation.standDown(principal, params.id, params.caseId, params.activationId),
  );
  bindRoute(app, ctx, routes.myActivations, ({ principal }) => activation.mine(principal));
  bindRoute(app, ctx, routes.acknowledgeActivation, ({ principal, params }) =>
    activation.acknowledge(principal, params.activationId),
  );
  bindRoute(app, ctx, routes.crewCaseActivations, ({ principal, params }) =>
    activation.crewActivations(principal, params.id),
  );
}
