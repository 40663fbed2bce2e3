import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { PushService } from './push.service.js';

export function pushRoutes(app: FastifyInstance, ctx: RouteContext, push: PushService): void {
  bindRoute(app, ctx, routes.vapidPublicKey, () => Promise.resolve(push.vapidPublicKey()));
  bindRoute(app, ctx, routes.pushSubscribe, ({ principal, body }) =>
    push.subscribe(principal, body.registrationToken, body.topic),
  );
  bindRoute(app, ctx, routes.pushUnsubscribe, ({ principal, body }) =>
    push.unsubscribe(principal, body.registrationToken, body.topic),
  );
}
