import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { FeedbackService } from './feedback.service.js';

export function feedbackRoutes(app: FastifyInstance, ctx: RouteContext, feedback: FeedbackService): void {
  bindRoute(app, ctx, routes.feedback, ({ principal, body }) => feedback.submit(principal, body), { status: 201 });
}
