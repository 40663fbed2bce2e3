/**
 * `start.html` (decisions 0039, 0043): a signed-in crew's app usually opens at /start, and the server
 * answers `GET /start` with this page (http/static-apps.ts); every other path keeps index.html. It is
 * index.html with Start's static shell (build/startShell.ts) in place of the login screen's, so Start is
 * painted from the HTML and the stylesheet before any script has loaded, and with the shell's one script
 * (an asset of its own, as the CSP allows no inline script) in the head where index.html has its launch
 * script, which keeps a tap on the shell's START CASE for the app.
 *
 * It no longer lists Start's chunk (`modulepreload`, decision 0039): with the shell, Start's first paint
 * does not wait for it, and fetched beside the entry chunk it shared the link with the stylesheet the
 * first paint waits for (0.15 s later on Lighthouse's slow 4G, decision 0043). `main.tsx` asks for it
 * while the stored session is read. The service worker precaches start.html and the script with the rest;
 * the service worker answers an offline /start with it too (vite.config.ts), as the server does online.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { launchScriptTag } from './launchSplash';
import { loginShellHtml } from './loginShell';
import { START_SHELL_SCRIPT, startShellHtml } from './startShell';

export const START_PAGE_FILE = 'start.html';

/** The shell's script under a name that changes with its content (cached for good, as Vite's assets). */
export const startShellScriptFile = (script = START_SHELL_SCRIPT) =>
  `assets/start-shell-${createHash('sha256').update(script).digest('hex').slice(0, 8)}.js`;

/**
 * index.html with the login shell replaced by Start's, and its launch script (build/launchSplash.ts: the
 * login shell as a splash) by the shell's script.
 */
export function startPageHtml(indexHtml: string, scriptFile: string, base = '/'): string {
  const launch = launchScriptTag(base);
  if (!indexHtml.includes(launch)) throw new Error('startPage: index.html has no launch script to replace');
  const login = loginShellHtml();
  if (!indexHtml.includes(login)) throw new Error('startPage: index.html has no login shell to replace');
  return indexHtml.replace(launch, `<script src="${base}${scriptFile}"></script>`).replace(login, startShellHtml());
}

/** Emits start.html and the shell's script beside index.html (web build only: the desktop build routes by hash). */
export function startPage(): Plugin {
  return {
    name: 'inbound-start-page',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('startPage: index.html is not in the bundle');
        const script = startShellScriptFile();
        this.emitFile({ type: 'asset', fileName: script, source: START_SHELL_SCRIPT });
        this.emitFile({
          type: 'asset',
          fileName: START_PAGE_FILE,
          source: startPageHtml(String(index.source), script),
        });
      },
    },
  };
}
