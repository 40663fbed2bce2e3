/**
 * A tap on the static Start shell's START CASE, before the app has taken over (decision 0043). start.html's
 * one small script (build/startShell.ts, START_SHELL_SCRIPT) notes it in `window[START_SHELL_GLOBAL]`; Start
 * acts on it once mounted, as if START CASE had been tapped there. The build imports this file directly,
 * so it imports nothing.
 */

/** The global the shell's script writes: `{ tapped, closed }`. */
export const START_SHELL_GLOBAL = '__inboundStartShell';
/** The attribute that marks the shell's START CASE (only in start.html, never on React's button). */
export const START_SHELL_ACTION = 'data-start-shell-action';

interface StartShellState {
  tapped: boolean;
  closed: boolean;
}

const state = (): StartShellState | undefined =>
  (window as unknown as Record<string, StartShellState | undefined>)[START_SHELL_GLOBAL];

/**
 * Whether START CASE was tapped on the shell; true once at most. Closes the shell: a tap noted later (there
 * is none: the shell is gone once React has drawn) would never count.
 */
export function takeStartShellTap(): boolean {
  const shell = state();
  if (!shell || shell.closed) return false;
  const tapped = shell.tapped;
  shell.tapped = false;
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
  shell.tapped = false;
  shell.closed = true;
}
