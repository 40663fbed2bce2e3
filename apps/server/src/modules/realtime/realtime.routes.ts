import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { routes } from '@inbound/contract';
import { bindRoute, type RouteContext } from '../../http/bind-route.js';
import { originAllowed } from './origin.js';
import { REALTIME_PATH, type RealtimeGateway } from './realtime.service.js';

/** A frame this many times the configured maximum is refused by ws itself (close 1009) before we see it. */
const HARD_FRAME_FACTOR = 4;

export async function realtimeRoutes(
  app: FastifyInstance,
  ctx: RouteContext,
  gateway: RealtimeGateway,
  options: { maxFrameBytes: number; publicUrl: string | null; allowedOrigins: readonly string[] },
): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: options.maxFrameBytes * HARD_FRAME_FACTOR, perMessageDeflate: false },
    // On close, before in-flight requests finish: sockets are told "restart" (and not the plugin's
    // code-less close), so clients resume on another process while this one drains its writes.
    preClose(done) {
      gateway.disconnectAll();
      this.websocketServer.close();
      done();
    },
  });

  app.get(
    REALTIME_PATH,
    {
      websocket: true,
      // Refused before the upgrade: the page never gets a socket.
      preValidation: async (request, reply) => {
        const allowed = { publicUrl: options.publicUrl, extra: options.allowedOrigins };
        if (!originAllowed(request.headers.origin, `${request.protocol}://${request.host}`, allowed)) {
          await reply
            .code(403)
            .send({ message: 'This origin may not open a real-time connection.', code: 'forbidden' });
        }
      },
    },
    (socket) => gateway.accept(socket),
  );

  bindRoute(app, ctx, routes.realtimeSecret, ({ principal }) => Promise.resolve(gateway.secret(principal)));
}
