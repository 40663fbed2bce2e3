import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { loginShellHtml } from './loginShell';
import { startShellHtml } from './startShell';
import { startPageHtml, startPreloadLinks } from './startPreload';

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[], css: string[] = []) =>
  ({
    type: 'chunk',
    fileName,
    facadeModuleId,
    imports,
    viteMetadata: { importedCss: new Set(css), importedAssets: new Set() },
  }) as unknown as Rolldown.OutputChunk;

const bundle = (chunks: Rolldown.OutputChunk[]) =>
  Object.fromEntries(chunks.map((c) => [c.fileName, c])) as unknown as Rolldown.OutputBundle;

const indexHtml =
  '<script type="module" crossorigin src="/assets/index-a.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-b.js">';

describe('start.html', () => {
  it('preloads Start’s chunk, what it imports and its stylesheet, not what index.html lists already', () => {
    const links = startPreloadLinks(
      bundle([
        chunk('assets/index-a.js', '/app/src/main.tsx', ['assets/react-b.js']),
        chunk('assets/react-b.js', null, []),
        chunk(
          'assets/StartPage-c.js',
          '/app/src/features/start/StartPage.tsx',
          ['assets/react-b.js', 'assets/TopBar-d.js'],
          ['assets/StartPage-c.css'],
        ),
        chunk('assets/TopBar-d.js', null, ['assets/Icon-e.js']),
        chunk('assets/Icon-e.js', null, []),
        chunk('assets/CasePage-f.js', '/app/src/features/case/CasePage.tsx', ['assets/react-b.js']),
      ]),
      indexHtml,
    );
    expect(links).toEqual([
      '<link rel="preload" as="style" crossorigin href="/assets/StartPage-c.css">',
      '<link rel="modulepreload" crossorigin href="/assets/StartPage-c.js">',
      '<link rel="modulepreload" crossorigin href="/assets/TopBar-d.js">',
      '<link rel="modulepreload" crossorigin href="/assets/Icon-e.js">',
    ]);
  });

  it('fails the build when Start has no chunk of its own', () => {
    expect(() => startPreloadLinks(bundle([chunk('assets/index-a.js', '/app/src/main.tsx', [])]), indexHtml)).toThrow(
      /StartPage/,
    );
  });

  it('draws Start’s shell instead of the login screen’s, with the head’s additions', () => {
    const index = `<html><head><title>Inbound</title></head><body><div id="root">${loginShellHtml()}</div></body></html>`;
    const page = startPageHtml(index, ['<link rel="modulepreload" href="/a.js">', '<script src="/s.js"></script>']);
    expect(page).toContain(`<div id="root">${startShellHtml()}</div>`);
    expect(page).not.toContain('login__title');
    expect(page).toMatch(/<link rel="modulepreload" href="\/a.js">\s*<script src="\/s.js"><\/script>\s*<\/head>/);
    expect(() => startPageHtml('<html><head></head><body></body></html>', [])).toThrow(/no login shell/);
  });
});
