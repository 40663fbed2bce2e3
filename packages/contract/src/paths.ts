/**
 * Where the API lives on the shared origin (spec §7: some paths lack the /v4 prefix). The server never
 * answers these with an app's index.html, the crew app's dev server forwards them, its service worker
 * never serves the app shell for them, and the browser tests cut exactly these to simulate no network.
 * No imports: the crew app's Vite config reads this file directly.
 */
export const API_PATH_PREFIXES = [
  '/v4',
  '/notification',
  '/media',
  '/monitor-integration',
  '/voip',
  '/questions',
  '/feedback',
  '/secret',
  '/health',
  '/api',
  '/realtime',
  '/auth',
] as const;

/** True when a path (query string allowed) belongs to the API. */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PATH_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
