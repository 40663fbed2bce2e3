/**
 * A tap on the static Start shell's buttons — START CASE, Logout, Case Transfer, the Message Center — before
 * the app has taken over (decision 0043). start.html's one small script (build/startShell.ts,
 * START_SHELL_SCRIPT) notes which in `window[START_SHELL_GLOBAL]`; Start acts on it once mounted, as if that
 * button had been tapped there. (The shell's other rows are links: they navigate on their own.) The build
 * imports this file directly, so it imports nothing.
 */

/** The global the shell's script writes: `{ tapped, closed }`. */
export const START_SHELL_GLOBAL = '__inboundStartShell';
/** The attribute that marks the shell's buttons with their action (only in start.html, never in React's). */
export const START_SHELL_ACTION = 'data-start-shell-action';

export type StartShellAction = 'startCase' | 'logout' | 'caseTransfer' | 'messageCenter';

interface StartShellState {
  tapped: StartShellAction | null;
  closed: boolean;
}

const state = (): StartShellState | undefined =>
  (window as unknown as Record<string, StartShellState | undefined>)[START_SHELL_GLOBAL];

/**
 * Which of the shell's buttons was tapped (the last one), once at most; null for none. Closes the shell: a
 * tap noted later (there is none: the shell is gone once React has drawn) would never count.
 */
export function takeStartShellTap(): StartShellAction | null {
  const shell = state();
  if (!shell || shell.closed) return null;
  const tapped = shell.tapped;
  shell.tapped = null;
  shell.closed = true;
  return tapped;
}

/**
 * Forgets a tap and stops noting them: the first screen is not Start (signed out, a case open, …). Never
 * acted on later, when Start opens after a sign-in.
 */
export function closeStartShell(): void {
  const shell = state();
  if (!shell) return;
  shell.tapped = null;
  shell.closed = true;
}
