/**
 * Crew app first-screen JavaScript, gzip level 9 — target ≤ 120 KB (issue 2, "Figures"); and the hospital
 * console's JavaScript, first screen and total (issue 5, "Figures": reported, no target set).
 *
 * Reads the built app in apps/crew/dist (build it first: `npm run build -w @inbound/crew`); builds nothing.
 * "First screen" is what the browser must fetch to show `/`: every script of index.html, its modulepreload
 * links, and everything those import statically. Chunks reached only through `import()` are the lazily
 * loaded routes; they are listed with their sizes. The chunk graph comes from Vite's manifest when
 * `build.manifest` is on, else from the import statements in the chunks themselves.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { kb, pad, padStart, verdict, KB } from './lib/format';
import { REPO_ROOT } from './lib/server';

export const FIRST_SCREEN_TARGET_BYTES = 120 * KB;

export interface ChunkSize {
  file: string;
  /** The module it was built from, when the manifest says. */
  source: string | null;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  distDir: string;
  firstScreen: ChunkSize[];
  firstScreenGzipBytes: number;
  firstScreenCss: ChunkSize[];
  lazy: ChunkSize[];
  other: ChunkSize[];
  graphSource: 'manifest' | 'imports';
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function sizeOf(distDir: string, file: string, source: string | null = null): ChunkSize {
  const content = readFileSync(path.join(distDir, file));
  return { file, source, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === '.vite') return [];
    return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** Scripts and modulepreload links of index.html, as paths inside dist. */
function htmlEntries(html: string, base: string): { scripts: string[]; styles: string[] } {
  const toDistPath = (ref: string) => (ref.startsWith(base) ? ref.slice(base.length) : ref.replace(/^\.?\//, ''));
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}=["']([^"']+)["']`).exec(tag)?.[1];
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => attr(m[0], 'src'));
  const preloads = [...html.matchAll(/<link\b[^>]*rel=["']modulepreload["'][^>]*>/g)].map((m) => attr(m[0], 'href'));
  const styles = [...html.matchAll(/<link\b[^>]*rel=["']stylesheet["'][^>]*>/g)].map((m) => attr(m[0], 'href'));
  const local = (refs: (string | undefined)[]) =>
    refs.filter((ref): ref is string => !!ref && !/^[a-z]+:\/\//i.test(ref)).map(toDistPath);
  return { scripts: local([...scripts, ...preloads]), styles: local(styles) };
}

/** Static and dynamic imports of a built chunk (minified ESM), as paths inside dist. */
function chunkImports(distDir: string, file: string): { staticImports: string[]; dynamicImports: string[] } {
  const code = readFileSync(path.join(distDir, file), 'utf8');
  const dir = path.posix.dirname(file);
  const resolve = (ref: string) => path.posix.normalize(path.posix.join(dir, ref));
  const relative = (ref: string) => ref.startsWith('./') || ref.startsWith('../');
  const staticRefs = [
    ...[...code.matchAll(/\bfrom\s*["']([^"']+\.js)["']/g)].map((m) => m[1]!),
    ...[...code.matchAll(/\bimport\s*["']([^"']+\.js)["']/g)].map((m) => m[1]!),
  ];
  const dynamicRefs = [...code.matchAll(/\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
  return {
    staticImports: staticRefs.filter(relative).map(resolve),
    dynamicImports: dynamicRefs.filter(relative).map(resolve),
  };
}

export function measureBundle(distDir = path.join(REPO_ROOT, 'apps/crew/dist')): BundleReport {
  const indexHtml = path.join(distDir, 'index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(`${indexHtml} is missing: build the crew app first (npm run build -w @inbound/crew)`);
  }
  const html = readFileSync(indexHtml, 'utf8');
  const base = /<script\b[^>]*src=["'](\/[^"']*?)assets\//.exec(html)?.[1] ?? '/';
  const entries = htmlEntries(html, base);

  const manifestPath = path.join(distDir, '.vite/manifest.json');
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>)
    : null;
  const byFile = new Map(Object.entries(manifest ?? {}).map(([key, chunk]) => [chunk.file, { key, chunk }]));

  const edges = (file: string) => {
    const fromManifest = byFile.get(file);
    if (manifest && fromManifest) {
      const files = (keys: string[] | undefined) =>
        (keys ?? []).map((key) => manifest[key]?.file).filter((f) => !!f) as string[];
      return {
        staticImports: files(fromManifest.chunk.imports),
        dynamicImports: files(fromManifest.chunk.dynamicImports),
        css: fromManifest.chunk.css ?? [],
      };
    }
    return file.endsWith('.js') || file.endsWith('.mjs')
      ? { ...chunkImports(distDir, file), css: [] as string[] }
      : { staticImports: [], dynamicImports: [], css: [] as string[] };
  };

  // Everything the first screen loads: the closure of index.html's scripts over static imports.
  const firstScreen = new Set<string>();
  const css = new Set(entries.styles);
  const dynamicSeeds = new Set<string>();
  const pending = [...entries.scripts];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (firstScreen.has(file) || !existsSync(path.join(distDir, file))) continue;
    firstScreen.add(file);
    const next = edges(file);
    next.css.forEach((c) => css.add(c));
    pending.push(...next.staticImports);
    next.dynamicImports.forEach((d) => dynamicSeeds.add(d));
  }

  // Everything reachable from there through import(): the lazily loaded routes and their shared chunks.
  const lazy = new Set<string>();
  const lazyPending = [...dynamicSeeds];
  while (lazyPending.length > 0) {
    const file = lazyPending.pop()!;
    if (firstScreen.has(file) || lazy.has(file) || !existsSync(path.join(distDir, file))) continue;
    lazy.add(file);
    const next = edges(file);
    lazyPending.push(...next.staticImports, ...next.dynamicImports);
  }

  const sourceOf = (file: string) => byFile.get(file)?.chunk.src ?? null;
  const measure = (files: Iterable<string>) =>
    [...files].map((file) => sizeOf(distDir, file, sourceOf(file))).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const allJs = listFiles(distDir).filter((file) => /\.m?js$/.test(file));
  const firstScreenSizes = measure(firstScreen);

  return {
    distDir,
    firstScreen: firstScreenSizes,
    firstScreenGzipBytes: firstScreenSizes.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    firstScreenCss: measure([...css].filter((file) => existsSync(path.join(distDir, file)))),
    lazy: measure(lazy),
    other: measure(allJs.filter((file) => !firstScreen.has(file) && !lazy.has(file))),
    graphSource: manifest ? 'manifest' : 'imports',
  };
}

export function printBundleReport(report: BundleReport): void {
  const line = (chunk: ChunkSize) =>
    `    ${pad(chunk.source ?? chunk.file, 58)} ${padStart(kb(chunk.bytes), 10)}  gzip ${padStart(kb(chunk.gzipBytes), 9)}`;
  console.info(
    `\n== Crew app bundle (${path.relative(REPO_ROOT, report.distDir)}, chunk graph from ${report.graphSource})`,
  );
  console.info(
    `crew first-screen JS (gzip): ${(report.firstScreenGzipBytes / KB).toFixed(1)} KB — target ≤ ${FIRST_SCREEN_TARGET_BYTES / KB} KB` +
      ` (${verdict(report.firstScreenGzipBytes <= FIRST_SCREEN_TARGET_BYTES)})`,
  );
  report.firstScreen.forEach((chunk) => console.info(line(chunk)));
  if (report.firstScreenCss.length > 0) {
    const cssGzip = report.firstScreenCss.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
    console.info(`  first-screen CSS (gzip, not counted above): ${kb(cssGzip)}`);
  }
  const lazyGzip = report.lazy.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  console.info(`  lazily loaded chunks: ${report.lazy.length}, ${kb(lazyGzip)} gzip in all`);
  report.lazy.forEach((chunk) => console.info(line(chunk)));
  if (report.other.length > 0) {
    console.info(`  other JS (not loaded for a screen, e.g. the service worker): ${report.other.length}`);
    report.other.forEach((chunk) => console.info(line(chunk)));
  }
}

export const CONSOLE_DIST = path.join(REPO_ROOT, 'apps/hospital/dist');

/** The hospital console's build (apps/hospital/dist, served at /hospital/); builds nothing. */
export function measureConsoleBundle(distDir = CONSOLE_DIST): BundleReport {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html is missing: build the console first (npm run build -w @inbound/hospital)`);
  }
  return measureBundle(distDir);
}

const gzipOf = (chunks: ChunkSize[]) => chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);

/** All the console's JavaScript: the first screen, the lazily loaded routes (case detail's map) and the rest. */
export const consoleTotalGzipBytes = (report: BundleReport) =>
  report.firstScreenGzipBytes + gzipOf(report.lazy) + gzipOf(report.other);

export function printConsoleBundleReport(report: BundleReport, crew?: BundleReport): void {
  const line = (chunk: ChunkSize) =>
    `    ${pad(chunk.source ?? chunk.file, 58)} ${padStart(kb(chunk.bytes), 10)}  gzip ${padStart(kb(chunk.gzipBytes), 9)}`;
  console.info(
    `\n== Hospital console bundle (${path.relative(REPO_ROOT, report.distDir)}, chunk graph from ${report.graphSource})`,
  );
  console.info(
    `console first-screen JS (gzip): ${kb(report.firstScreenGzipBytes)}; all console JS (gzip): ${kb(consoleTotalGzipBytes(report))}` +
      (crew ? ` — beside the crew app's first screen: ${kb(crew.firstScreenGzipBytes)}` : ''),
  );
  report.firstScreen.forEach((chunk) => console.info(line(chunk)));
  if (report.firstScreenCss.length > 0)
    console.info(`  first-screen CSS (gzip, not counted above): ${kb(gzipOf(report.firstScreenCss))}`);
  console.info(`  lazily loaded chunks: ${report.lazy.length}, ${kb(gzipOf(report.lazy))} gzip in all`);
  report.lazy.forEach((chunk) => console.info(line(chunk)));
  report.other.forEach((chunk) => console.info(line(chunk)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const crew = measureBundle();
  printBundleReport(crew);
  printConsoleBundleReport(measureConsoleBundle(), crew);
}
