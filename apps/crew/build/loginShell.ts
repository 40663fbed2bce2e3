/**
 * The login screen's shell, written into index.html at build time (issue 16, item 11): the dark band with
 * the logo, the brand name and the tagline, and the empty card where the sign-in form will be. The browser
 * paints it as soon as the HTML and the stylesheet arrive — on a cellular link well before the app's
 * scripts have loaded and run — and React replaces it with the same screen (main.tsx's createRoot).
 * Same class names and texts as LoginPage.tsx, so nothing moves when it is replaced; other routes show it
 * as a splash for the moment before their screen draws — without the card for a crew signed in
 * (build/launchSplash.ts). No inline script: the page's CSP allows only 'self'.
 */
import type { Plugin } from 'vite';
// The files themselves, not the package: Node loads the Vite config before anything bundles workspace code.
import { BRAND_NAME_DEFAULT } from '../../../packages/contract/src/constants';
import { messages } from '../../../packages/contract/src/messages';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const LOGIN_SHELL_MARKER = '<!--login-shell-->';

export function loginShellHtml(brand = BRAND_NAME_DEFAULT, tagline = messages.tagline): string {
  return [
    '<div class="shell"><main class="shell__main"><div class="page page--login"><div class="login">',
    '<div class="login__brand"><span class="login__logo" aria-hidden="true"></span>',
    `<h1 class="login__title">${escapeHtml(brand)}</h1>`,
    `<p class="login__subtitle">${escapeHtml(tagline)}</p></div>`,
    '<div class="form login__form-shell" aria-busy="true"></div>',
    '</div></div></main></div>',
  ].join('');
}

/** Replaces the marker inside index.html's #root with the shell. */
export function loginShell(): Plugin {
  return {
    name: 'inbound-login-shell',
    transformIndexHtml(html) {
      if (!html.includes(LOGIN_SHELL_MARKER)) throw new Error(`index.html lacks ${LOGIN_SHELL_MARKER}`);
      return html.replace(LOGIN_SHELL_MARKER, loginShellHtml());
    },
  };
}
