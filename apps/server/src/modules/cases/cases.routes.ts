import type { FastifyInstance, FastifyReply } from 'fastify';
import { placeholderIdFromQuery, routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { Answer, CasesService } from './cases.service.js';
import { writeContext } from './write-context.js';

/** Sends a write's body; a replayed answer says so in a header (the body is the first answer's). */
function answer<T>(reply: FastifyReply, result: Answer<T>): T {
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  return result.body;
}

/** The case calls. A committed change is announced by the cases module's outbox, not here. */
export function casesRoutes(app: FastifyInstance, ctx: RouteContext, cases: CasesService): void {
  bindRoute(
    app,
    ctx,
    routes.createCase,
    async ({ principal, query, body, request, reply }) => {
      const result = await cases.create(principal, writeContext(request), placeholderIdFromQuery(query), body);
      return answer(reply, result);
    },
    { status: 201 },
  );
  bindRoute(app, ctx, routes.getCase, ({ principal, params }) => cases.get(principal, params.id));
  bindRoute(app, ctx, routes.patchCase, async ({ principal, params, body, request, reply }) =>
    answer(reply, await cases.patch(principal, writeContext(request), params.id, body)),
  );
  bindRoute(app, ctx, routes.caseLocation, async ({ principal, params, body, request, reply }) =>
    answer(reply, await cases.location(principal, writeContext(request), params.id, body)),
  );
  bindRoute(app, ctx, routes.addCaseTag, async ({ principal, params, query, request, reply }) =>
    answer(reply, await cases.addTag(principal, writeContext(request), params.id, query.tagId)),
  );
  bindRoute(app, ctx, routes.removeCaseTag, async ({ principal, params, query, request, reply }) =>
    answer(reply, await cases.removeTag(principal, writeContext(request), params.id, query.tagId)),
  );
  bindRoute(app, ctx, routes.caseTagValues, async ({ principal, params, body, request, reply }) =>
    answer(reply, await cases.tagValues(principal, writeContext(request), params.id, params.tagId, body)),
  );
  bindRoute(app, ctx, routes.caseDynamicForm, async ({ principal, params, body, request, reply }) =>
    answer(reply, await cases.patientInfo(principal, writeContext(request), params.id, params.formId, body)),
  );
  bindRoute(app, ctx, routes.monitorIntegration, async ({ principal, params, body, request, reply }) =>
    answer(reply, await cases.monitor(principal, writeContext(request), params.type, params.caseId, body)),
  );
  bindRoute(
    app,
    ctx,
    routes.caseFeedback,
    async ({ principal, params, body, request, reply }) =>
      answer(reply, await cases.feedback(principal, writeContext(request), params.id, body)),
    { status: 201 },
  );
}
