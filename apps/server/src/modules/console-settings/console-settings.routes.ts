import type { FastifyInstance } from 'fastify';
import { routes, type ConsoleSettings } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';

/**
 * Settings the console needs at run time. Served rather than baked in at build time, so the tile
 * server the CSP allows (MAP_TILE_URL) and the one the map asks for are the same setting.
 */
export function consoleSettingsRoutes(app: FastifyInstance, ctx: RouteContext, settings: ConsoleSettings): void {
  bindRoute(app, ctx, routes.consoleSettings, () => Promise.resolve(settings));
}
