/**
 * Where the modem's bytes come in: a UDP socket (udp4/udp6), a TCP listener, or a serial device. Each
 * source hands on raw bytes and says whether they are a whole datagram or a piece of a stream; the
 * decoding is the GPS service's. A serial device that goes away (the USB modem unplugged) is reopened
 * every second until it is back, without a restart.
 */
import { createSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { SerialPort } from 'serialport';
import type { GpsConfig } from '@inbound/contract';

export interface GpsSourceEvents {
  onDatagram(bytes: Buffer): void;
  onStreamData(bytes: Buffer): void;
  /** The stream ended (TCP connection closed, device gone): an unfinished sentence is dropped. */
  onStreamEnd(): void;
  /** The source could not listen or lost its device; null once it listens (again). */
  onProblem(problem: string | null): void;
}

export interface GpsSource {
  /** What it listens on, for the installer: "udp4 0.0.0.0:21000". */
  readonly description: string;
  close(): Promise<void>;
}

/** Opens the source the config names. Resolves once listening, or rejects with why not (port in use). */
export async function openGpsSource(config: GpsConfig, events: GpsSourceEvents): Promise<GpsSource> {
  if (config.portType === 'serial') return openSerial(String(config.port), config.baudRate, events);
  const port = Number(config.port);
  if (config.portType === 'tcp') return openTcp(config.host, port, events);
  return openUdp(config.portType, config.host, port, events);
}

function openUdp(type: 'udp4' | 'udp6', host: string, port: number, events: GpsSourceEvents): Promise<GpsSource> {
  return new Promise((resolve, reject) => {
    const socket = createSocket({ type, ipv6Only: type === 'udp6' });
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      socket.on('error', (error) => events.onProblem(`UDP socket error: ${error.message}`));
      socket.on('message', (bytes) => events.onDatagram(bytes));
      const address = socket.address();
      resolve({
        description: `${type} ${address.address}:${address.port}`,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}

function openTcp(host: string, port: number, events: GpsSourceEvents): Promise<GpsSource> {
  return new Promise((resolve, reject) => {
    // One modem, one connection: a new connection (the modem reconnecting) replaces the old one, so
    // two half-sentences from different connections never meet in one buffer.
    let current: Socket | null = null;
    const server = createServer((socket) => {
      if (current) {
        current.destroy();
        events.onStreamEnd();
      }
      current = socket;
      socket.on('data', (bytes) => {
        if (current === socket) events.onStreamData(bytes);
      });
      socket.on('close', () => {
        if (current !== socket) return;
        current = null;
        events.onStreamEnd();
      });
      socket.on('error', () => undefined);
    });
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      const where = address && typeof address === 'object' ? `${address.address}:${address.port}` : `${host}:${port}`;
      resolve({
        description: `tcp ${where}`,
        close: () =>
          new Promise((done) => {
            current?.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** How often a missing serial device is looked for again. */
export const SERIAL_RETRY_MS = 1_000;

function openSerial(path: string, baudRate: number, events: GpsSourceEvents): Promise<GpsSource> {
  let closed = false;
  let port: SerialPort | null = null;
  let retry: NodeJS.Timeout | null = null;

  const connect = () => {
    retry = null;
    if (closed) return;
    const opened = new SerialPort({ path, baudRate, autoOpen: false });
    port = opened;
    opened.open((error) => {
      if (closed) {
        if (!error) opened.close();
        return;
      }
      if (error) {
        events.onProblem(`${path}: ${error.message}`);
        scheduleRetry();
        return;
      }
      events.onProblem(null);
      opened.on('data', (bytes: Buffer) => events.onStreamData(bytes));
      opened.on('error', () => undefined);
      opened.once('close', () => {
        events.onStreamEnd();
        if (closed) return;
        events.onProblem(`${path} was disconnected; waiting for it to come back`);
        scheduleRetry();
      });
    });
  };
  const scheduleRetry = () => {
    if (!closed && !retry) retry = setTimeout(connect, SERIAL_RETRY_MS);
  };
  connect();
  return Promise.resolve({
    description: `serial ${path} at ${baudRate} baud`,
    close: () =>
      new Promise<void>((done) => {
        closed = true;
        if (retry) clearTimeout(retry);
        if (port?.isOpen) port.close(() => done());
        else done();
      }),
  });
}
