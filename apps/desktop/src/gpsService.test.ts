import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GpsConfig, type DesktopGpsFix, type GpsConfigInput } from '@inbound/contract';
import { createGpsStreamDecoder } from '@inbound/gps';
import { GPS_DATA_MISSING, gpsDataDir } from '@inbound/gps/testData';
import { createGpsService, type GpsService } from './gpsService';
import { taipNow } from './testModem';

const dataDir = gpsDataDir();
if (!dataDir) console.warn(GPS_DATA_MISSING);

const services: GpsService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** A service listening as `config` says (port 0: the OS picks), collecting the fixes it hands on. */
async function startService(config: Partial<GpsConfigInput>) {
  const full = {
    ...GpsConfig.parse({ source: 'modem', portType: 'udp4', port: 1, host: '127.0.0.1', dataFormat: 'TAIP' }),
    ...config,
  } as GpsConfig;
  const service = createGpsService(full);
  services.push(service);
  const fixes: DesktopGpsFix[] = [];
  service.subscribe({ onFix: (fix) => fixes.push(fix), onStatusChange: () => undefined });
  await service.apply(full);
  const listening = service.status().listening ?? '';
  const port = Number(/:(\d+)$/.exec(listening)?.[1] ?? NaN);
  return { service, fixes, port };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectedFixes(format: 'NMEA' | 'TAIP', bytes: Buffer) {
  return createGpsStreamDecoder(format)
    .pushStream(bytes)
    .map(({ lat, lon, time }) => ({ lat, lon, time: time.slice(11) }));
}

const simplify = (fixes: DesktopGpsFix[]) => fixes.map(({ lat, lon, time }) => ({ lat, lon, time: time.slice(11) }));

describe.skipIf(!dataDir)('GPS sources: the real captures replayed to the host', () => {
  it('UDP (udp4): the TAIP stream as one datagram per message, several messages per datagram too', async () => {
    const bytes = readFileSync(join(dataDir!, 'taip', 'TAIP0xF0.dat'));
    const messages = bytes.toString('latin1').split(/(?<=<)/);
    const { fixes, port, service } = await startService({ portType: 'udp4', port: 0, dataFormat: 'TAIP' });
    const socket = createSocket('udp4');
    // The first 30 one by one, the rest three to a datagram (a store-and-forward burst).
    const datagrams = [...messages.slice(0, 30), ...chunk(messages.slice(30), 3).map((group) => group.join(''))];
    for (const datagram of datagrams) await new Promise((resolve) => socket.send(datagram, port, '127.0.0.1', resolve));
    socket.close();
    await until(() => fixes.length === 51, '51 fixes');
    expect(simplify(fixes)).toEqual(expectedFixes('TAIP', bytes));
    expect(service.status().counters).toMatchObject({ received: 51, used: 51, badChecksum: 0, invalid: 0 });
    expect(service.status().recent[0]).toMatchObject({ result: 'used' });
  });

  it('UDP (udp6): NMEA, several sentences per datagram', async (context) => {
    if (spawnSync('ip', ['-6', 'addr', 'show', 'lo']).stdout?.toString().includes('::1') !== true)
      return context.skip('no IPv6 loopback on this machine');
    const bytes = readFileSync(join(dataDir!, 'nmea-gpsd', 'haicom-305N.log'));
    const lines = bytes.toString('latin1').split('\n');
    const { fixes, port } = await startService({ portType: 'udp6', port: 0, host: '::1', dataFormat: 'NMEA' });
    const socket = createSocket('udp6');
    for (const group of chunk(lines, 5))
      await new Promise((resolve) => socket.send(group.join('\n'), port, '::1', resolve));
    socket.close();
    const expected = expectedFixes('NMEA', bytes);
    await until(() => fixes.length === expected.length, `${expected.length} fixes`);
    expect(simplify(fixes)).toEqual(expected);
  });

  it('TCP: a gpsd capture written in pieces cut at random byte boundaries', async () => {
    const bytes = readFileSync(join(dataDir!, 'nmea-gpsd', 'bundg_zeus_9.log'));
    const { fixes, port } = await startService({ portType: 'tcp', port: 0, dataFormat: 'NMEA' });
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    for (let start = 0; start < bytes.length;) {
      const end = Math.min(bytes.length, start + 1 + Math.floor(Math.random() * 97));
      socket.write(bytes.subarray(start, end));
      start = end;
      // Let each piece arrive as its own read now and then.
      if (Math.random() < 0.2) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    socket.end();
    const expected = expectedFixes('NMEA', bytes);
    await until(() => fixes.length === expected.length, `${expected.length} fixes`);
    expect(simplify(fixes)).toEqual(expected);
  });
});

describe('GPS config applied without a restart', () => {
  it('moves from UDP to TCP: the old port stops listening, the new one takes fixes', async () => {
    const { service, fixes, port: udpPort } = await startService({ portType: 'udp4', port: 0, dataFormat: 'TAIP' });
    const next = { ...service.status().config, portType: 'tcp' as const, port: 0 };
    await service.apply(next);
    const tcpPort = Number(/:(\d+)$/.exec(service.status().listening ?? '')?.[1]);
    const message = taipNow();
    const udp = createSocket('udp4');
    await new Promise((resolve) => udp.send(message, udpPort, '127.0.0.1', resolve));
    udp.close();
    const socket = connect(tcpPort, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.end(message);
    await until(() => fixes.length === 1, 'the fix over TCP');
    expect(service.status()).toMatchObject({
      listening: `tcp 127.0.0.1:${tcpPort}`,
      counters: { received: 1, used: 1 },
    });
  });

  it('says why it cannot listen (port in use) instead of failing silently', async () => {
    const { port } = await startService({ portType: 'udp4', port: 0 });
    const { service } = await startService({ portType: 'udp4', port });
    expect(service.status()).toMatchObject({ listening: null, error: expect.stringContaining('in use') });
  });
});

const socatMissing = spawnSync('socat', ['-V']).status !== 0;
if (socatMissing && process.env.CI)
  throw new Error('socat is missing: scripts/ensure-system-packages.sh socat installs it');

describe.skipIf(socatMissing)('GPS from a serial device (a socat pseudo-terminal pair)', () => {
  let socat: ChildProcess | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'inbound-serial-'));
  afterEach(() => {
    socat?.kill();
    socat = null;
  });

  /** Plugs the "modem" in: a pty pair, the laptop's end at `laptop`, the modem's at `modem`, 4800 baud. */
  async function plugIn(): Promise<void> {
    socat = spawn(
      'socat',
      [`pty,raw,echo=0,b4800,link=${join(dir, 'modem')}`, `pty,raw,echo=0,b4800,link=${join(dir, 'laptop')}`],
      {
        stdio: 'ignore',
      },
    );
    await until(() => existsSync(join(dir, 'modem')) && existsSync(join(dir, 'laptop')), 'the pty pair');
  }

  async function unplug(): Promise<void> {
    const exited = new Promise((resolve) => socat?.once('exit', resolve));
    socat?.kill();
    await exited;
    socat = null;
  }

  function modemWrites(text: string): void {
    const fd = openSync(join(dir, 'modem'), 'w');
    writeSync(fd, text);
    closeSync(fd);
  }

  it('reads NMEA from the device, and resumes after it is unplugged and plugged back in', async () => {
    await plugIn();
    const { service, fixes } = await startService({
      portType: 'serial',
      port: join(dir, 'laptop'),
      baudRate: 4800,
      dataFormat: 'NMEA',
      host: '',
    });
    expect(service.status().listening).toBe(`serial ${join(dir, 'laptop')} at 4800 baud`);
    await until(() => service.status().error === null && fixes.length === 0, 'the device open', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    modemWrites(`${rmc('120000')}\r\n${rmc('120001').slice(0, 30)}`);
    modemWrites(`${rmc('120001').slice(30)}\r\n`);
    await until(() => fixes.length === 2, 'two fixes (one sentence split over two writes)');

    await unplug();
    await until(() => (service.status().error ?? '').includes('disconnected'), 'the unplug noticed');
    rmSync(join(dir, 'laptop'), { force: true });
    await plugIn();
    await until(() => service.status().error === null, 'the device reopened', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    modemWrites(`${rmc('120005')}\r\n`);
    await until(() => fixes.length === 3, 'a fix after plugging back in');
    expect(fixes[2]?.time).toContain('T12:00:05');
    rmSync(dir, { recursive: true, force: true });
  });
});

function rmc(time: string): string {
  const body = `GPRMC,${time}.00,A,4807.038,N,01131.000,E,022.4,084.4,251126,003.1,W,A`;
  let sum = 0;
  for (const char of body) sum ^= char.charCodeAt(0);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

function chunk<T>(items: T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let index = 0; index < items.length; index += size) groups.push(items.slice(index, index + size));
  return groups;
}
