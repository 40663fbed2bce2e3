/**
 * The desktop host's HTTP side, on 127.0.0.1 only: the crew app's desktop build, the GPS config and live
 * socket for it, and every API path passed through to the Inbound server, so the app keeps talking to
 * one origin (its cookies, CSP and service worker stay as on the web).
 *
 * Any web page the laptop opens could send requests to 127.0.0.1; changing where the host listens for
 * the modem is for our own window only: such requests must come from the host's own origin, by Host
 * (no DNS rebinding) and by Origin (no cross-site request).
 */
import fastifyHttpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  API_PATH_PREFIXES,
  DESKTOP_GPS_CONFIG_PATH,
  DESKTOP_GPS_SOCKET_PATH,
  GpsConfig,
  type DesktopGpsMessage,
  type GpsConfigError,
} from '@inbound/contract';
import type { GpsConfigStore } from './gpsConfigStore';
import type { GpsService } from './gpsService';

export interface HostServerOptions {
  /** The crew app's desktop build (apps/crew/dist-desktop). */
  crewDir: string;
  /** The Inbound server the API paths go to, e.g. https://inbound.example.org. */
  serverUrl: string;
  gps: GpsService;
  store: GpsConfigStore;
  logger?: boolean;
}

/** The live view's status goes out at most this often; fixes go out at once. */
export const STATUS_INTERVAL_MS = 500;

export async function buildHostServer(options: HostServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 16 * 1024 });

  const fromOwnWindow = (request: Pick<IncomingMessage, 'headers'>): boolean => {
    const host = request.headers.host ?? '';
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return false;
    const origin = request.headers.origin;
    return origin === undefined || origin === `http://${host}`;
  };

  app.get(DESKTOP_GPS_CONFIG_PATH, async (request, reply) => {
    if (!fromOwnWindow(request)) return reply.code(403).send({ message: 'Only the Inbound window may read this' });
    return { config: options.gps.status().config };
  });

  app.put(DESKTOP_GPS_CONFIG_PATH, async (request, reply) => {
    if (!fromOwnWindow(request)) return reply.code(403).send({ message: 'Only the Inbound window may change this' });
    const parsed = GpsConfig.safeParse(request.body);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? 'config')] ??= issue.message;
      const body: GpsConfigError = { message: 'The GPS settings were not saved: check the marked fields', fieldErrors };
      return reply.code(400).send(body);
    }
    await options.store.save(parsed.data);
    await options.gps.apply(parsed.data);
    return { config: parsed.data, status: options.gps.status() };
  });

  // The live socket is ours, on its own 'upgrade' listener registered before the proxy's: the proxy then
  // takes only the upgrades under its prefixes (/realtime), and this one only its own path.
  const liveSockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  app.server.on('upgrade', (request: IncomingMessage, socket, head) => {
    if (request.url?.split('?')[0] !== DESKTOP_GPS_SOCKET_PATH) return;
    if (!fromOwnWindow(request)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    liveSockets.handleUpgrade(request, socket, head, (webSocket) => streamGps(webSocket, options.gps));
  });
  app.addHook('onClose', (_instance, done) => {
    for (const client of liveSockets.clients) client.terminate();
    liveSockets.close(() => done());
  });

  // The API, /realtime included, is the server's: passed through as it is.
  for (const prefix of API_PATH_PREFIXES) {
    await app.register(fastifyHttpProxy, {
      upstream: options.serverUrl,
      prefix,
      rewritePrefix: prefix,
      websocket: prefix === '/realtime',
      // The server sees the laptop's requests as they are; its rate limits key on the forwarded address.
      replyOptions: {
        rewriteRequestHeaders: (_request, headers) => ({ ...headers, host: new URL(options.serverUrl).host }),
      },
    });
  }

  await app.register(fastifyStatic, { root: options.crewDir, prefix: '/', index: ['index.html'] });
  return app;
}

/** Sends the status at once, each fix as it comes, and the status again at most every STATUS_INTERVAL_MS. */
function streamGps(socket: WebSocket, gps: GpsService): void {
  const send = (message: DesktopGpsMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  let statusDue: NodeJS.Timeout | null = null;
  const sendStatus = () => {
    statusDue = null;
    send({ type: 'status', status: gps.status() });
  };
  sendStatus();
  const unsubscribe = gps.subscribe({
    onFix: (fix) => send({ type: 'fix', fix }),
    onStatusChange: () => {
      statusDue ??= setTimeout(sendStatus, STATUS_INTERVAL_MS);
    },
  });
  socket.on('close', () => {
    unsubscribe();
    if (statusDue) clearTimeout(statusDue);
  });
}
