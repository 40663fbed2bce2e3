/**
 * `start.html`: index.html with Start's own code announced in the head (issue 16, item 11). A signed-in
 * crew's app usually opens at /start, and on a cellular link Start's chunk used to be requested only once
 * the entry chunk had arrived and run (main.tsx's preload) — one more round trip before Start could draw.
 * With these `modulepreload` links the browser fetches it beside the entry chunk. The server answers
 * /start with this page (http/static-apps.ts); every other path keeps index.html, so the login screen
 * loads nothing more. The service worker's offline start answers with index.html from its precache, where
 * every chunk already is.
 */
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

export const START_PAGE_FILE = 'start.html';
const START_MODULE = /\/src\/features\/start\/StartPage\.tsx$/;

/** The chunks and stylesheets Start's chunk loads before it runs, that index.html does not list already. */
export function startPreloadLinks(bundle: OutputBundle, indexHtml: string, base = '/'): string[] {
  const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
  const start = chunks.find((chunk) => chunk.facadeModuleId !== null && START_MODULE.test(chunk.facadeModuleId));
  if (!start) throw new Error('startPreload: no chunk for src/features/start/StartPage.tsx');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const scripts: string[] = [];
  const styles = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (scripts.includes(chunk.fileName)) return;
    scripts.push(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  visit(start);
  const listed = (file: string) => indexHtml.includes(`"${base}${file}"`);
  return [
    ...[...styles]
      .filter((file) => !listed(file))
      .map((file) => `<link rel="preload" as="style" crossorigin href="${base}${file}">`),
    ...scripts
      .filter((file) => !listed(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
  ];
}

/** Emits start.html beside index.html (web build only: the desktop build routes by hash). */
export function startPreload(): Plugin {
  return {
    name: 'inbound-start-preload',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('startPreload: index.html is not in the bundle');
        const html = String(index.source);
        const links = startPreloadLinks(bundle, html);
        if (!html.includes('</head>')) throw new Error('startPreload: index.html has no </head>');
        this.emitFile({
          type: 'asset',
          fileName: START_PAGE_FILE,
          source: html.replace('</head>', `\n    ${links.join('\n    ')}\n  </head>`),
        });
      },
    },
  };
}
