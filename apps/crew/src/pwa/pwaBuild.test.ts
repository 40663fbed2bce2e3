/**
 * Build-level checks of the PWA output (apps/crew/dist). They run only after `npm run build -w
 * @inbound/crew`; without a build they are skipped with a message (the unit run does not build).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(import.meta.dirname, '../../dist');
const manifestPath = path.join(dist, 'manifest.webmanifest');
const built = existsSync(manifestPath);
if (!built) console.info(`PWA build checks skipped: ${manifestPath} not found (run npm run build -w @inbound/crew)`);

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe.skipIf(!built)('built PWA (dist)', () => {
  const manifest = built
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown> & { icons: ManifestIcon[] })
    : { icons: [] };

  it('has an installable manifest: names, standalone, start_url and scope /, the app colours', () => {
    expect(manifest).toMatchObject({
      name: 'Inbound',
      short_name: 'Inbound',
      display: 'standalone',
      start_url: '/',
      scope: '/',
      theme_color: '#0b2545',
      background_color: '#f1f4f9',
    });
    expect(manifest.description).toEqual(expect.any(String));
  });

  it('lists 192, 512, maskable 512 and apple-touch 180 PNG icons, each built at its declared size', () => {
    const find = (sizes: string, purpose = 'any') =>
      manifest.icons.find((icon) => icon.sizes === sizes && (icon.purpose ?? 'any') === purpose);
    for (const [sizes, purpose] of [['192x192'], ['512x512'], ['512x512', 'maskable'], ['180x180']] as const) {
      const icon = find(sizes, purpose);
      expect(icon, `${sizes} ${purpose ?? 'any'}`).toBeDefined();
      const png = readFileSync(path.join(dist, icon!.src));
      // PNG IHDR: width and height are big-endian 32-bit at bytes 16 and 20.
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(sizes);
    }
  });

  it('index.html links the manifest and the apple-touch icon and injects no registration script', () => {
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(html).toContain('rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('rel="apple-touch-icon"');
    expect(html).not.toContain('registerSW.js');
  });

  it('sw.js precaches the shell, falls back to index.html except API paths and /start, caches only the three GETs', () => {
    const sw = readFileSync(path.join(dist, 'sw.js'), 'utf8');
    expect(sw).toContain('"index.html"');
    expect(sw).toMatch(/createHandlerBoundToURL\("\/index\.html"\)/);
    const api = ['v4', 'notification', 'media', 'monitor-integration', 'voip', 'questions', 'feedback'];
    for (const prefix of [...api, 'secret', 'health', 'api', 'realtime', 'hospital']) {
      expect(sw).toContain(`/^\\/${prefix}(\\/|$|\\?)/`);
    }
    // /start is answered with the precached start.html (Start's static shell), not index.html.
    expect(sw).toContain('/^\\/start($|\\?)/');
    expect(sw).toContain('"/start.html"');
    const runtimeCaches = [...sw.matchAll(/cacheName:"([^"]+)"/g)].map((match) => match[1]);
    expect(runtimeCaches.sort()).toEqual([
      'inbound-runtime-complaint-sets',
      'inbound-runtime-hospital-statuses',
      'inbound-runtime-teams',
    ]);
    expect(sw).not.toMatch(/"(POST|PATCH|PUT|DELETE)"/);
    expect(sw).toContain('importScripts("/sw-extensions.js")');
    // registerType 'prompt': the new worker waits for the page's SKIP_WAITING message (the update flow).
    expect(sw).toContain('"SKIP_WAITING"===');
    expect(sw).toMatch(/\.type&&self\.skipWaiting\(\)/);
    expect(sw).not.toMatch(/[,;{]self\.skipWaiting\(\)/);
    expect(existsSync(path.join(dist, 'sw-extensions.js'))).toBe(true);
  });

  it('precaches the code and the icons the screens show, not the install icons, in ≤ 256 KB on the wire', () => {
    // Issue 16, item 11: the precache downloads over the crew's cellular link right after the first screen.
    const sw = readFileSync(path.join(dist, 'sw.js'), 'utf8');
    const urls = [...sw.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]!);
    expect(urls).toContain('index.html');
    expect(urls).toContain('favicon.svg'); // the login screen's logo
    expect(urls.filter((url) => url.endsWith('.png'))).toEqual([]);
    // What the server sends for each (its brotli copy where the build made one).
    const onTheWire = urls.reduce((total, url) => {
      const file = path.join(dist, url);
      return total + readFileSync(existsSync(`${file}.br`) ? `${file}.br` : file).length;
    }, 0);
    // 240 KB until the live consult, the call screen's recording and keep-alive and the after-paint split of
    // Start (issue 16) added ~25 KB of lazily loaded code; 256 KB keeps the next growth in sight.
    expect(onTheWire).toBeLessThanOrEqual(256 * 1024);
  });

  it("index.html carries the login screen's shell, painted before the scripts run", () => {
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
    expect(root).toContain('<h1 class="login__title">Inbound</h1>');
    expect(root).toContain('<p class="login__subtitle">Accelerate Emergency Care</p>');
    expect(root).not.toContain('<script');
  });
});
