/**
 * `npm run desktop`: the desktop host. Serves the crew app's desktop build on 127.0.0.1, listens for the
 * vehicle modem as twiageConfig.json says, and keeps the app window open until SIGTERM / Ctrl-C.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { keepAppWindowOpen, findBrowser, type AppWindow } from './appWindow';
import { createGpsConfigStore } from './gpsConfigStore';
import { createGpsService } from './gpsService';
import { readHostConfig } from './hostConfig';
import { buildHostServer } from './hostServer';

async function main(): Promise<void> {
  const { config, problems } = readHostConfig();
  if (!config) {
    for (const problem of problems) console.error(`inbound desktop: ${problem}`);
    process.exit(1);
  }
  await mkdir(config.dataDir, { recursive: true });
  const store = createGpsConfigStore(config.dataDir);
  const { config: gpsConfig, problem } = await store.load();
  if (problem) console.warn(`inbound desktop: ${problem}`);
  const gps = createGpsService(gpsConfig, problem);
  await gps.apply(gpsConfig);
  const server = await buildHostServer({ crewDir: config.crewDir, serverUrl: config.serverUrl, gps, store });
  await server.listen({ host: '127.0.0.1', port: config.port });
  const address = server.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const url = `http://127.0.0.1:${port}/`;
  const status = gps.status();
  console.info(
    `inbound desktop: serving ${url} (API: ${config.serverUrl}); GPS ${status.listening ?? status.error ?? 'browser only'}`,
  );
  console.info(`inbound desktop: GPS settings in ${store.path}`);

  let window: AppWindow | null = null;
  if (config.openWindow) {
    const browser = findBrowser();
    if (!browser)
      console.error('inbound desktop: no Chromium, Chrome or Edge found; set INBOUND_BROWSER. Serving only.');
    else
      window = keepAppWindowOpen({
        browser,
        url,
        profileDir: join(config.dataDir, 'browser-profile'),
        extraArgs: config.browserArgs,
        onOpen: (child) => console.info(`inbound desktop: window open (${browser}, pid ${String(child.pid)})`),
        onClose: (code) => console.info(`inbound desktop: window closed (exit ${String(code)}); reopening`),
      });
  }

  const stop = async () => {
    await window?.close();
    await server.close();
    await gps.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
