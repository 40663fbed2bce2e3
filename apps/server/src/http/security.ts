/**
 * Security headers (helmet). Defaults stay on; the lines below are the ones we change, and why.
 *
 * helmet itself, not @fastify/helmet: the plugin builds helmet's middleware anew on every request
 * (parsing the CSP directives each time), a few percent of a request's CPU. The headers depend on
 * nothing in the request, so the middleware is built once here and run on every request.
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** helmet's default: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

export async function registerSecurityHeaders(
  app: FastifyInstance,
  publicUrl: string | null,
  mapTileUrl: string | null,
): Promise<void> {
  // 'self' covers ws:/wss: of the same host in CSP Level 3 browsers; with PUBLIC_URL we also name the
  // WebSocket origin explicitly for older engines and for proxies that change the scheme.
  const wsOrigins: string[] = [];
  if (publicUrl) {
    const url = new URL(publicUrl);
    wsOrigins.push(`${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`);
  }
  const setHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The apps ship only bundled scripts from their own origin: no inline script, no eval.
        scriptSrc: ["'self'"],
        // Component libraries set inline styles; styles cannot run code, so this is the usual trade-off.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Photos and EKG previews are shown from blob: URLs before upload; small icons come as data: URLs.
        // MAP_TILE_URL's server, and only it, for the console's route map.
        imgSrc: ["'self'", 'data:', 'blob:', ...(mapTileUrl ? [new URL(mapTileUrl).origin] : [])],
        // The API and the real-time socket live on this origin.
        connectSrc: ["'self'", ...wsOrigins],
        // Voice memos and videos play back from blob: URLs while they wait in the outbox.
        mediaSrc: ["'self'", 'blob:'],
        // The service worker and any media-conversion worker are same-origin (blob: for inline workers).
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Off: a crew tablet on a station's plain-http LAN address must not be forced to https.
        upgradeInsecureRequests: null,
      },
    },
    // Camera, microphone and location are the product (media, calls, GPS); helmet leaves
    // Permissions-Policy alone, so the browser's defaults apply.
    // Off: the apps load no cross-origin resources that would need CORP opt-in, but a TURN/LLM origin
    // might in future; COEP would break those silently.
    crossOriginEmbedderPolicy: false,
    // Set below, only on https: over plain http the header is meaningless (RFC 6797 §7.2 says to ignore it)
    // and tells a scanner the deployment is confused.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
