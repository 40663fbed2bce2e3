/**
 * The app window: the system's Chromium, Chrome or Edge started with `--app=URL` (a window without tabs
 * or address bar) and a profile of its own, so the crew's storage, service worker and permissions live
 * apart from anyone's browsing. If the window goes — closed by accident, the browser crashed — it is
 * opened again; a browser that keeps dying at once is retried less and less often.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const LINUX_BROWSERS = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];
const WINDOWS_BROWSERS = [
  String.raw`Microsoft\Edge\Application\msedge.exe`,
  String.raw`Google\Chrome\Application\chrome.exe`,
  String.raw`Chromium\Application\chrome.exe`,
];

/** `INBOUND_BROWSER` if set, else the first Chromium, Chrome or Edge found. Null when there is none. */
export function findBrowser(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  if (env.INBOUND_BROWSER) return env.INBOUND_BROWSER;
  if (platform === 'win32') {
    const roots = [env['ProgramFiles(x86)'], env.ProgramFiles, env.LOCALAPPDATA].filter(
      (root): root is string => !!root,
    );
    for (const root of roots)
      for (const browser of WINDOWS_BROWSERS) if (executable(join(root, browser))) return join(root, browser);
    return null;
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of LINUX_BROWSERS) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface AppWindowOptions {
  browser: string;
  url: string;
  profileDir: string;
  /** More browser flags (INBOUND_BROWSER_ARGS), e.g. a remote-debugging port for the tests. */
  extraArgs?: string[];
  /** Told each time a window opens (its process) or goes. */
  onOpen?: (child: ChildProcess) => void;
  onClose?: (code: number | null) => void;
}

export interface AppWindow {
  /** Stops reopening and closes the window. */
  close(): Promise<void>;
}

/** The quickest reopen, and the longest wait between tries when the browser keeps dying at once. */
const REOPEN_MS = 500;
const MAX_REOPEN_MS = 30_000;
/** A window that stayed open this long was used: the next close reopens it at once. */
const STABLE_MS = 10_000;

export function keepAppWindowOpen(options: AppWindowOptions): AppWindow {
  let stopping = false;
  let child: ChildProcess | null = null;
  let delay = REOPEN_MS;
  let timer: NodeJS.Timeout | null = null;

  const open = () => {
    timer = null;
    if (stopping) return;
    const openedAt = Date.now();
    const args = [
      `--app=${options.url}`,
      `--user-data-dir=${options.profileDir}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-session-crashed-bubble',
      // Chromium refuses to run as root without it (a kiosk set up as root; not the usual install).
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ...(options.extraArgs ?? []),
    ];
    const started = spawn(options.browser, args, { stdio: 'ignore' });
    child = started;
    options.onOpen?.(started);
    started.once('error', (error) =>
      console.error(`inbound desktop: cannot start ${options.browser}: ${error.message}`),
    );
    started.once('exit', (code) => {
      child = null;
      options.onClose?.(code);
      if (stopping) return;
      delay = Date.now() - openedAt > STABLE_MS ? REOPEN_MS : Math.min(delay * 2, MAX_REOPEN_MS);
      timer = setTimeout(open, delay);
    });
  };
  open();

  return {
    close: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (timer) clearTimeout(timer);
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
