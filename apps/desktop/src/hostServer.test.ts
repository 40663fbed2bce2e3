import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DesktopGpsMessage, GPS_CONFIG_DEFAULTS, GpsConfig } from '@inbound/contract';
import { createGpsConfigStore } from './gpsConfigStore';
import { createGpsService } from './gpsService';
import { buildHostServer } from './hostServer';
import { freeUdpPort, taipNow } from './testModem';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost() {
  const dataDir = mkdtempSync(join(tmpdir(), 'inbound-desktop-'));
  const crewDir = join(dataDir, 'crew');
  mkdirSync(crewDir);
  writeFileSync(join(crewDir, 'index.html'), '<!doctype html><title>Inbound</title>');
  const store = createGpsConfigStore(dataDir);
  const config = GpsConfig.parse({ ...GPS_CONFIG_DEFAULTS, host: '127.0.0.1', port: await freeUdpPort() });
  const gps = createGpsService(config);
  await gps.apply(config);
  // The API goes nowhere here: these tests are about the host's own paths.
  const app = await buildHostServer({ crewDir, serverUrl: 'http://127.0.0.1:9', gps, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(async () => {
    await app.close();
    await gps.close();
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, gps, store, origin: `http://127.0.0.1:${port}` };
}

describe('desktop host: GPS config and live socket', () => {
  it('serves the crew app, and reads the config only for its own window', async () => {
    const { origin } = await startHost();
    expect(await (await fetch(`${origin}/`)).text()).toContain('Inbound');
    const own = await fetch(`${origin}/desktop/gps/config`);
    expect(await own.json()).toMatchObject({ config: { portType: 'udp4', dataFormat: 'TAIP' } });
    const foreign = await fetch(`${origin}/desktop/gps/config`, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });

  it('refuses a bad config field by field, saves a good one to twiageConfig.json and applies it at once', async () => {
    const { origin, store, gps } = await startHost();
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${origin}/desktop/gps/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin, ...headers },
        body: JSON.stringify(body),
      });
    const bad = await put({ source: 'modem', portType: 'udp6', port: '70000', host: '0.0.0.0', dataFormat: 'XML' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fieldErrors: { dataFormat: 'Choose TAIP or NMEA' } });
    const badPort = await put({
      source: 'modem',
      portType: 'udp6',
      port: '70000',
      host: '0.0.0.0',
      dataFormat: 'NMEA',
    });
    expect(await badPort.json()).toEqual({
      message: 'The GPS settings were not saved: check the marked fields',
      fieldErrors: {
        port: 'Port must be a whole number from 1 to 65535',
        host: 'Enter an IPv6 address (:: for every one)',
      },
    });
    expect((await put({ ...GPS_CONFIG_DEFAULTS }, { origin: 'https://evil.example' })).status).toBe(403);

    const good = await put({ source: 'modem', portType: 'tcp', port: '0', host: '127.0.0.1', dataFormat: 'NMEA' });
    // Port 0 is no port a modem can be told; the installer gets a field error.
    expect(good.status).toBe(400);
    const saved = await put({ source: 'modem', portType: 'tcp', port: '21999', host: '127.0.0.1', dataFormat: 'NMEA' });
    expect(saved.status).toBe(200);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      source: 'modem',
      portType: 'tcp',
      port: 21999,
      host: '127.0.0.1',
      dataFormat: 'NMEA',
      baudRate: 4800,
    });
    expect(gps.status().listening ?? gps.status().error).toContain('tcp 127.0.0.1:21999');
    expect((await store.load()).config.portType).toBe('tcp');
  });

  it('sends each fix over the local WebSocket as it arrives, and the status for the live view', async () => {
    const { origin, gps } = await startHost();
    const udpPort = Number(/:(\d+)$/.exec(gps.status().listening ?? '')?.[1]);
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/desktop/gps`, { origin });
    const messages: DesktopGpsMessage[] = [];
    socket.on('message', (data) => messages.push(DesktopGpsMessage.parse(JSON.parse(String(data)))));
    await new Promise((resolve) => socket.once('open', resolve));
    const udp = createSocket('udp4');
    await new Promise((resolve) => udp.send(taipNow(42.1, -71.2), udpPort, '127.0.0.1', resolve));
    udp.close();
    await expect
      .poll(() => messages.find((message) => message.type === 'fix'))
      .toMatchObject({
        fix: { lat: 42.1, lon: -71.2, format: 'TAIP', sentence: 'RPV', vehicleId: 'AMB7' },
      });
    await expect
      .poll(() => messages.filter((message) => message.type === 'status').at(-1))
      .toMatchObject({ status: { counters: { received: 1, used: 1 } } });
    socket.close();

    const foreign = new WebSocket(`${origin.replace('http', 'ws')}/desktop/gps`, { origin: 'https://evil.example' });
    foreign.on('error', () => undefined);
    const refused = await new Promise((resolve) =>
      foreign.once('unexpected-response', (_request, response) => resolve(response.statusCode)),
    );
    expect(refused).toBe(403);
  });
});
