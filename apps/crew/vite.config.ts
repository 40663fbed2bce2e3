import { constants as zlibConstants } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
// The file itself, not the package: Node loads this config before anything bundles workspace TypeScript.
import { API_PATH_PREFIXES } from '../../packages/contract/src/paths';
import { signedOutCacheGuard } from './src/pwa/signedOutCacheGuard';
import { launchSplash } from './build/launchSplash';
import { loginShell } from './build/loginShell';
import { startPage } from './build/startPage';

// The API lives on the same origin in production (the server serves this build). In development Vite
// serves the app and forwards every API path, including those without the /v4 prefix (spec §7), to it.
const apiTarget = 'http://localhost:8080';
// Paths the service worker never answers with index.html (the server's API prefixes, the hospital console).
const navigationDenylist = [...API_PATH_PREFIXES, '/hospital'].map((prefix) => new RegExp(`^${prefix}(/|$|\\?)`));

// The only authenticated answers the service worker keeps (NetworkFirst): what a signed-in crew needs to
// open the app and work a case with no network. Logout deletes them (public/sw-extensions.js). Workbox
// serialises these functions into sw.js, so they must not use anything from this file's scope.
const runtimeCaching = [
  {
    // GET /v4/emsAgencies/{id}?fields=dynamicForms (the team) and /v4/emsAgencies/{id}/trucks
    urlPattern: ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) =>
      sameOrigin && url.pathname.startsWith('/v4/emsAgencies/'),
    cacheName: 'inbound-runtime-teams',
  },
  {
    // GET /v4/complaintSets?name={set}&firstOccurrenceOnly=true
    urlPattern: ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) =>
      sameOrigin && (url.pathname === '/v4/complaintSets' || url.pathname.startsWith('/v4/complaintSets/')),
    cacheName: 'inbound-runtime-complaint-sets',
  },
  {
    // GET /v4/hospitals/{id}/statuses
    urlPattern: ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) =>
      sameOrigin && /^\/v4\/hospitals\/[^/]+\/statuses$/.test(url.pathname),
    cacheName: 'inbound-runtime-hospital-statuses',
  },
].map(({ urlPattern, cacheName }) => ({
  urlPattern,
  method: 'GET' as const,
  handler: 'NetworkFirst' as const,
  options: {
    cacheName,
    // A coverage gap: fall back to the cached copy after 4 s instead of waiting for the browser's time-out.
    networkTimeoutSeconds: 4,
    cacheableResponse: { statuses: [200] },
    expiration: { maxEntries: 50, maxAgeSeconds: 7 * 24 * 60 * 60 },
    // Nothing of a crew who logged out while a request was in flight (src/pwa/signedOutCacheGuard.ts).
    plugins: [signedOutCacheGuard],
  },
}));

// /start, where a signed-in crew's app opens, is answered offline as the server answers it online: with
// start.html, Start's static shell (decision 0043), from the precache; every other navigation gets
// index.html. Serialised into sw.js like the functions above. (Web build only: the desktop build routes by
// hash and has no start.html.)
const START_NAVIGATION = /^\/start($|\?)/;
const startNavigation = {
  urlPattern: ({ request, url, sameOrigin }: { request: Request; url: URL; sameOrigin: boolean }) =>
    sameOrigin && request.mode === 'navigate' && url.pathname === '/start',
  method: 'GET' as const,
  handler: async ({ request }: { request: Request }) =>
    (await caches.match('/start.html', { ignoreSearch: true, ignoreVary: true })) ?? fetch(request),
};

// The one build flag of the desktop variant (spec §2): `vite build --mode desktop` builds the same source
// with hash routing and the /gpsSource page into dist-desktop/, which apps/desktop serves.
export default defineConfig(({ mode }) => ({
  base: '/',
  define: { __INBOUND_DESKTOP__: JSON.stringify(mode === 'desktop') },
  plugins: [
    react(),
    loginShell(),
    // index.html's launch script: its login shell a plain splash for a crew signed in (both builds).
    launchSplash(),
    // /start's page: Start's static shell instead of the login screen's (web build only: the desktop build routes by hash).
    ...(mode === 'desktop' ? [] : [startPage()]),
    VitePWA({
      // The app decides when a waiting version takes over (src/pwa: the alert, never during a call).
      registerType: 'prompt',
      // Registered by src/pwa/registerServiceWorker.ts after the first render, not by an injected script.
      injectRegister: false,
      // The manifest's icons are not precached (see globIgnores below).
      includeManifestIcons: false,
      // No service worker under `vite dev`: it would cache the dev server's modules.
      devOptions: { enabled: false },
      manifest: {
        id: '/',
        name: 'Inbound',
        short_name: 'Inbound',
        description: 'Inbound — pre-notify the hospital from the ambulance',
        lang: 'en',
        display: 'standalone',
        orientation: 'any',
        start_url: '/',
        scope: '/',
        // styles.css: --navy-800 (the top bar, the theme-color meta) and --background.
        theme_color: '#0b2545',
        background_color: '#f1f4f9',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/apple-touch-icon-180.png', sizes: '180x180', type: 'image/png' },
        ],
      },
      workbox: {
        // The app shell: every built script, style and page, and the icons the screens show (not the source
        // maps, not the icons' SVG sources). The plugin adds manifest.webmanifest itself. The manifest's PNG
        // icons are fetched by the browser when it installs the app, online: precaching them too would only
        // add to a crew's first load over cellular (issue 16, item 11).
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        globIgnores: ['sw-extensions.js', 'icons/*.svg', 'icons/*.png'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: mode === 'desktop' ? navigationDenylist : [...navigationDenylist, START_NAVIGATION],
        cleanupOutdatedCaches: true,
        // A new version waits until the app says so (SKIP_WAITING); a first install takes the open page
        // at once, so the team and complaint set it loads are already kept for the next offline start.
        skipWaiting: false,
        clientsClaim: true,
        runtimeCaching: mode === 'desktop' ? runtimeCaching : [startNavigation, ...runtimeCaching],
        importScripts: ['/sw-extensions.js'],
        sourcemap: false,
      },
    }),
    // Brotli and gzip copies of every text file beside it; the server picks one by Accept-Encoding (issue 16:
    // a crew's first load is over cellular). Compressed once here at the highest levels, never per request.
    compression({
      include: /\.(js|css|html|svg|webmanifest|json)$/,
      exclude: /\.map$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: { outDir: mode === 'desktop' ? 'dist-desktop' : 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(API_PATH_PREFIXES.map((path) => [path, { target: apiTarget, changeOrigin: true }])),
      '/realtime': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
}));
