/**
 * `start.html`: index.html with Start's own code announced in the head (issue 16, item 11). A signed-in
 * crew's app usually opens at /start, and on a cellular link Start's chunk used to be requested only once
 * the entry chunk had arrived and run (main.tsx's preload) — one more round trip before Start could draw.
 * With these `modulepreload` links the browser fetches it beside the entry chunk. The server answers
 * /start with this page (http/static-apps.ts); every other path keeps index.html, so the login screen
 * loads nothing more. The service worker's offline start answers with index.html from its precache, where
 * every chunk already is.
 *
 * Its body is Start's static shell instead of the login screen's (build/startShell.ts, decision 0043), with
 * the shell's one script (a hashed asset, as the CSP allows no inline script) in the head.
 */
import { createHash } from 'node:crypto';
import type { Plugin, Rolldown } from 'vite';
import { loginShellHtml } from './loginShell';
import { START_SHELL_SCRIPT, startShellHtml } from './startShell';

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

/** index.html with `head` added to its head and the login shell replaced by Start's. */
export function startPageHtml(indexHtml: string, head: string[]): string {
  if (!indexHtml.includes('</head>')) throw new Error('startPreload: index.html has no </head>');
  const login = loginShellHtml();
  if (!indexHtml.includes(login)) throw new Error('startPreload: index.html has no login shell to replace');
  return indexHtml
    .replace('</head>', `\n    ${head.join('\n    ')}\n  </head>`)
    .replace(login, startShellHtml());
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
        const script = `assets/start-shell-${createHash('sha256').update(START_SHELL_SCRIPT).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: script, source: START_SHELL_SCRIPT });
        this.emitFile({
          type: 'asset',
          fileName: START_PAGE_FILE,
          source: startPageHtml(html, [...links, `<script src="/${script}"></script>`]),
        });
      },
    },
  };
}
