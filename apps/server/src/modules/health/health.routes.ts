import type { FastifyInstance } from 'fastify';
import { CLIENT_VERSION, routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import type { DialectName } from '../../db/database.js';

/** Liveness, and what this process runs on — enough for a load balancer and for a person at a terminal. */
export function healthRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  info: { database: DialectName; broker: 'memory' | 'redis' },
): void {
  bindRoute(app, ctx, routes.health, () =>
    Promise.resolve({ status: 'ok' as const, version: CLIENT_VERSION, database: info.database, broker: info.broker }),
  );
}
