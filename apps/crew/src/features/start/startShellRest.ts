/**
 * Where Start's static shell draws START CASE (decision 0043). The shell cannot know what Start draws
 * between the rows and START CASE (the hospital statuses), so it pins START CASE at the bottom of the
 * screen, as Start does on a phone, where Start is taller than the screen. On a screen that Start fits (a
 * portrait tablet), Start draws it higher, under the statuses, and it jumped up when the app took over.
 * So Start, at its first layout and whenever its height changes, leaves the room it drew there for this
 * screen size, and the shell's script (build/startShell.ts), run before the shell is drawn, gives the shell's
 * empty block that height on a screen of the same size: from the second start on, START CASE does not move. Only numbers are kept (localStorage:
 * read synchronously by the script), no patient data. The build imports this file directly, so it imports
 * nothing.
 */

/** The localStorage key: `{ width, height, rest }` of the last Start drawn, or nothing where Start is pinned. */
export const START_SHELL_REST_KEY = 'inbound.startShellRest';
/** The CSS property the shell's script sets on the root element: the height of `.start-shell__rest`. */
export const START_SHELL_REST_PROPERTY = '--start-shell-rest';

/** How many of Start's rows the shell draws: all but the session's own (Protocols), which come last. */
export const SHELL_MENU_ROWS = 5;

/**
 * Leaves the shell the room between where its rows end (Start's first SHELL_MENU_ROWS, and the menu's edge)
 * and Start's START CASE block (`action`) on this screen, or nothing when START CASE is held at the bottom of
 * the screen (sticky, Start taller than the screen) or is not in the one column (a landscape tablet), where
 * the shell's own layout already matches.
 */
export function rememberStartShellRest(content: Element, menu: Element, action: Element): void {
  const rows = menu.children;
  const lastShellRow = rows[SHELL_MENU_ROWS - 1];
  const lastRow = rows[rows.length - 1];
  if (!lastShellRow || !lastRow) return;
  const inColumn = getComputedStyle(action).position === 'sticky';
  const actionBox = action.getBoundingClientRect();
  // Held at the bottom, its bottom is the screen's; drawn higher, above it.
  const fits = inColumn && actionBox.bottom < window.innerHeight - 0.5;
  const shellMenuBottom =
    lastShellRow.getBoundingClientRect().bottom +
    (menu.getBoundingClientRect().bottom - lastRow.getBoundingClientRect().bottom);
  // The shell has one flex gap before its empty block and one after it.
  const gap = parseFloat(getComputedStyle(content).rowGap) || 0;
  const rest = Math.max(0, actionBox.top - shellMenuBottom - 2 * gap);
  try {
    if (fits)
      localStorage.setItem(
        START_SHELL_REST_KEY,
        JSON.stringify({ width: window.innerWidth, height: window.innerHeight, rest }),
      );
    else localStorage.removeItem(START_SHELL_REST_KEY);
  } catch {
    // Storage refused: the shell pins START CASE at the bottom, as before.
  }
}
