/**
 * Start's static shell, written into start.html at build time (decision 0043): the top bar, the welcome,
 * the menu rows' labels and START CASE pinned at the bottom, in the markup and class names StartPage.tsx
 * draws, so the browser paints Start before any script has loaded and run (the LCP is the HTML's paint) and
 * React's first commit replaces it without moving anything. What only the encrypted session knows — the
 * name, the shift end, the team, the truck, the Protocols row, the closed case's hand-over line, the
 * hospital statuses — is not here: its place is kept empty (the values' spans, the rest of the screen under
 * the rows, or the room Start left there at its last start on this screen size), so START CASE is already
 * where Start draws it.
 *
 * A tap on the shell's buttons is never lost: start.html's one script (START_SHELL_SCRIPT, an asset of its
 * own: the page's CSP allows no inline script) notes which, and Start acts on it once mounted — starts the
 * case, asks about logout, opens Receive Case or the Message Center (features/start/startShellTap.ts).
 * `startShell.test.tsx` fails when this markup drifts from React's.
 */
// The files themselves, not the packages: Node loads the Vite config before anything bundles workspace code.
import { messages } from '../../../packages/contract/src/messages';
import { ENVELOPE_PATH, startTexts as t } from '../src/features/start/startScreen';
import { START_SHELL_REST_KEY, START_SHELL_REST_PROPERTY } from '../src/features/start/startShellRest';
import { START_SHELL_ACTION, START_SHELL_GLOBAL, type StartShellAction } from '../src/features/start/startShellTap';

const action = (name: StartShellAction) => `${START_SHELL_ACTION}="${name}"`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A MenuRow (ui/MenuRow.tsx): a link when it goes somewhere, a button otherwise; its value kept empty. */
const menuRow = (label: string, { to, value = '', tap }: { to?: string; value?: string; tap?: StartShellAction }) => {
  const content =
    `<span class="menu__label">${escapeHtml(label)}</span> <span class="menu__value">${escapeHtml(value)}</span>` +
    '<span class="menu__chevron" aria-hidden="true">›</span>';
  return to
    ? `<a class="menu__row" href="${to}">${content}</a>`
    : `<button type="button" class="menu__row"${tap ? ` ${action(tap)}` : ''}>${content}</button>`;
};

export function startShellHtml(): string {
  return [
    '<div class="shell"><main class="shell__main"><div class="page page--start">',
    '<header class="top-bar">',
    `<div class="top-bar__side"><a class="top-bar__button" href="/settings">${escapeHtml(t.settings)}</a></div>`,
    `<h1 class="top-bar__title">${escapeHtml(t.title)}</h1>`,
    '<div class="top-bar__side top-bar__side--end">',
    `<button type="button" class="icon-button" aria-label="${escapeHtml(t.messageCenter)}" ${action('messageCenter')}>`,
    '<svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" focusable="false">',
    `<path fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" d="${ENVELOPE_PATH}"></path>`,
    '</svg></button></div></header>',
    '<div class="page__content">',
    `<p class="welcome">${escapeHtml(t.welcome)} <strong></strong></p>`,
    `<nav class="menu" aria-label="Shift">`,
    `<button type="button" class="menu__row menu__row--danger" ${action('logout')}><span class="menu__label">${escapeHtml(t.logout)}</span></button>`,
    menuRow(t.shiftEnds, { to: '/shift' }),
    menuRow(t.team, { to: '/team-selection' }),
    menuRow(t.truck, { to: '/truck-selection' }),
    menuRow(t.caseTransfer, { value: messages.tapToReceiveCase, tap: 'caseTransfer' }),
    '</nav>',
    // The hospital statuses and notices: the rest of a phone's screen, so START CASE sits at its bottom, or
    // the room Start left on this screen size (startShellRest.ts).
    '<div class="start-shell__rest"></div>',
    '<div class="start-action">',
    `<p class="tagline">${escapeHtml(messages.tagline)}</p>`,
    `<button type="button" class="button button--start" ${action('startCase')}>${escapeHtml(messages.startCase)}</button>`,
    '</div></div></div></main></div>',
  ].join('');
}

/**
 * start.html's script, run before the shell is drawn (a classic script in the head): gives the shell's empty
 * block the height Start left for this screen size (features/start/startShellRest.ts), and notes which of the
 * shell's buttons was tapped (and shows it pressed, the one before no longer) until the app closes the shell.
 */
export const START_SHELL_SCRIPT = `(function () {
  try {
    var kept = JSON.parse(localStorage.getItem('${START_SHELL_REST_KEY}') || 'null');
    if (kept && kept.width === innerWidth && kept.height === innerHeight && typeof kept.rest === 'number' && kept.rest >= 0)
      document.documentElement.style.setProperty('${START_SHELL_REST_PROPERTY}', kept.rest + 'px');
  } catch (e) {}
  var shell = (window.${START_SHELL_GLOBAL} = { tapped: null, closed: false });
  var pressed = null;
  document.addEventListener('click', function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('[${START_SHELL_ACTION}]') : null;
    if (!button || shell.closed) return;
    shell.tapped = button.getAttribute('${START_SHELL_ACTION}');
    if (pressed) pressed.removeAttribute('aria-busy');
    pressed = button;
    button.setAttribute('aria-busy', 'true');
  }, true);
})();
`;
