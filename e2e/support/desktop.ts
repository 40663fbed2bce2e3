/**
 * The desktop host in the browser tests: `apps/desktop` run under `xvfb-run` (a virtual display for its
 * app window), on a fresh data folder whose twiageConfig.json points the GPS at a free UDP port, with
 * Debian's Chromium as the window. The window opens with a remote-debugging port of the OS's choosing,
 * which Chromium writes to DevToolsActivePort in its profile: Playwright attaches to that window over CDP
 * — the host's own window, not one Playwright launched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { REPO_ROOT, freePort } from './server';

export interface DesktopHost {
  url: string;
  gpsPort: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startDesktopHost(serverUrl: string): Promise<DesktopHost> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-desktop-e2e-'));
  const [port, gpsPort] = [await freePort(), await freeUdpPort()];
  writeFileSync(
    path.join(dataDir, 'twiageConfig.json'),
    JSON.stringify({ source: 'modem', portType: 'udp4', port: gpsPort, host: '127.0.0.1', dataFormat: 'TAIP' }),
  );
  // Detached: its own process group, so stopping it ends xvfb-run, Xvfb, the host and the window alike.
  const child: ChildProcess = spawn('xvfb-run', ['-a', 'npx', 'tsx', 'apps/desktop/src/main.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      INBOUND_SERVER_URL: serverUrl,
      INBOUND_DESKTOP_PORT: String(port),
      INBOUND_DESKTOP_DIR: dataDir,
      INBOUND_BROWSER: CHROMIUM_PATH,
      INBOUND_BROWSER_ARGS: [...CHROMIUM_ARGS, '--remote-debugging-port=0', '--window-size=1024,768'].join(' '),
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    url: `http://127.0.0.1:${port}/`,
    gpsPort,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.pid) await stopProcessGroup(child.pid);
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/**
 * Ends a process group and waits until none of it is left: xvfb-run exits before the window's Chromium has
 * finished writing its profile, whose removal then failed with ENOTEMPTY on a busy machine. SIGKILL after 15 s.
 */
async function stopProcessGroup(pgid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Bounded: an orphan's zombie nobody reaps would answer `kill 0` for ever.
  const gone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return !alive();
  };
  if (!alive()) return;
  process.kill(-pgid, 'SIGTERM');
  if (await gone(15_000)) return;
  process.kill(-pgid, 'SIGKILL');
  await gone(5_000);
}

/** The DevTools port of the window the host opened, once it is up (a new one after each reopen). */
export function devToolsPort(host: DesktopHost): number | null {
  const file = path.join(host.dataDir, 'browser-profile', 'DevToolsActivePort');
  if (!existsSync(file)) return null;
  const port = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

/** Attaches to the host's window (not the one with `previousPort`) and returns it with its page. */
export async function attachToWindow(host: DesktopHost, previousPort: number | null = null) {
  let port: number | null = null;
  await expect
    .poll(
      () => {
        port = devToolsPort(host);
        return port !== null && port !== previousPort;
      },
      { timeout: 30_000, message: `the host's window (host output: ${host.output()})` },
    )
    .toBe(true);
  const browser: Browser = await chromium.connectOverCDP(`http://127.0.0.1:${port!}`);
  let page: Page | undefined;
  await expect
    .poll(
      () =>
        (page = browser
          .contexts()[0]
          ?.pages()
          .find((p) => p.url().startsWith(host.url))) !== undefined,
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
  return { browser, page: page!, port: port! };
}

/** A TAIP PV report as a vehicle modem sends it: the present GPS time of day, the position, a checksum. */
export function taipReport(lat: number, lon: number): string {
  const secondsOfDay = Math.floor((Date.now() / 1000 + 18) % 86_400);
  const signed = (value: number, width: number) =>
    `${value < 0 ? '-' : '+'}${String(Math.round(Math.abs(value) * 1e5)).padStart(width, '0')}`;
  const text = `>RPV${String(secondsOfDay).padStart(5, '0')}${signed(lat, 7)}${signed(lon, 8)}02512012;ID=AMB7;*`;
  let sum = 0;
  for (const char of text) sum ^= char.charCodeAt(0);
  return `${text}${sum.toString(16).toUpperCase().padStart(2, '0')}<`;
}

export function sendDatagram(port: number, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.send(text, port, '127.0.0.1', (error) => {
      socket.close();
      if (error) reject(error);
      else resolve();
    });
  });
}

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}
