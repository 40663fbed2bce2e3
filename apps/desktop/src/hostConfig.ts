/**
 * The desktop host's settings, from the environment, checked at start (every problem listed, then exit).
 * The GPS settings are not here: they are the installer's, in twiageConfig.json, changed on /gpsSource.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HostConfig {
  serverUrl: string;
  port: number;
  dataDir: string;
  crewDir: string;
  /** False: serve and listen only (`INBOUND_WINDOW=off`, e.g. on a test machine without a display). */
  openWindow: boolean;
  browserArgs: string[];
}

export function readHostConfig(env: NodeJS.ProcessEnv = process.env): { config?: HostConfig; problems: string[] } {
  const problems: string[] = [];
  const serverUrl = env.INBOUND_SERVER_URL ?? '';
  try {
    const url = new URL(serverUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push('INBOUND_SERVER_URL must be http(s)://');
  } catch {
    problems.push('INBOUND_SERVER_URL must be the Inbound server address, e.g. https://inbound.example.org');
  }
  const port = Number(env.INBOUND_DESKTOP_PORT ?? '4870');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('INBOUND_DESKTOP_PORT must be a port number');
  const windowSetting = env.INBOUND_WINDOW ?? 'on';
  if (windowSetting !== 'on' && windowSetting !== 'off') problems.push('INBOUND_WINDOW must be on or off');
  const here = dirname(fileURLToPath(import.meta.url));
  const config: HostConfig = {
    serverUrl: serverUrl.replace(/\/$/, ''),
    port,
    dataDir: resolve(env.INBOUND_DESKTOP_DIR ?? defaultDataDir(env)),
    // Beside the host in a package (crew/), else the crew app's desktop build in the repository.
    crewDir: resolve(env.INBOUND_CREW_DIR ?? join(here, '..', '..', 'crew', 'dist-desktop')),
    openWindow: windowSetting === 'on',
    browserArgs: (env.INBOUND_BROWSER_ARGS ?? '').split(' ').filter(Boolean),
  };
  return problems.length ? { problems } : { config, problems };
}

function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'Inbound');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'inbound-desktop');
}
