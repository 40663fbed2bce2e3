/**
 * index.html's launch script: a signed-in crew opening the app anywhere but /start (the installed app's
 * start_url is /, a reload keeps the route, a restart with a case open goes to the case screen) is shown
 * index.html's static screen while the stored session is decrypted — a few hundred ms on a phone. That
 * screen is the sign-in screen's shell (build/loginShell.ts); with its empty sign-in card it reads as
 * "you were signed out", mid-case. The script, run in the head before the body is drawn, marks the page
 * when a crew was signed in when the app last ran (routing/signedInHint.ts), and the stylesheet then hides
 * the card: the brand alone, a plain splash. A crew signed out sees the card as before.
 *
 * An asset of its own, not inline: the page's CSP allows only 'self' scripts. start.html does not carry it
 * (build/startPage.ts puts Start's shell script in its place): Start's shell is drawn there instead.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
// The file itself, not the package: Node loads the Vite config before anything bundles workspace code.
import { SIGNED_IN_KEY } from '../src/routing/signedInHint';

/** Set on <html> by the script; styles.css hides the sign-in card under it. */
export const SIGNED_IN_ATTRIBUTE = 'data-signed-in';

export const LAUNCH_SCRIPT = `(function () {
  try {
    if (localStorage.getItem('${SIGNED_IN_KEY}') === '1') document.documentElement.setAttribute('${SIGNED_IN_ATTRIBUTE}', '');
  } catch (e) {}
})();
`;

/** The script under a name that changes with its content (cached for good, as Vite's assets). */
export const launchScriptFile = (script = LAUNCH_SCRIPT) =>
  `assets/launch-${createHash('sha256').update(script).digest('hex').slice(0, 8)}.js`;

/** The tag index.html's head gets, last in it: the body is not drawn before it has run. */
export const launchScriptTag = (base = '/') => `<script src="${base}${launchScriptFile()}"></script>`;

/** Puts the script in index.html's head and emits it beside the page (both builds: web and desktop). */
export function launchSplash(): Plugin {
  return {
    name: 'inbound-launch-splash',
    apply: 'build',
    transformIndexHtml(html) {
      if (!html.includes('</head>')) throw new Error('launchSplash: index.html has no </head>');
      return html.replace('</head>', `  ${launchScriptTag()}\n  </head>`);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: launchScriptFile(), source: LAUNCH_SCRIPT });
    },
  };
}
