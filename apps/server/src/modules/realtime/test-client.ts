/**
 * A /realtime client for tests: a real `ws` socket that queues the frames it receives, so a test can
 * await the next frame of a kind, and the close code.
 */
import { WebSocket, type ClientOptions } from 'ws';
import { ServerFrame, type ClientFrame } from '@inbound/contract';

export interface TestSocket {
  socket: WebSocket;
  send(frame: ClientFrame | Record<string, unknown>): void;
  sendRaw(data: string | Buffer): void;
  /** The next frame matching `match` (frames before it that do not match are kept). */
  next<T extends ServerFrame['type']>(
    type: T,
    match?: (frame: Extract<ServerFrame, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<ServerFrame, { type: T }>>;
  frames: ServerFrame[];
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function openSocket(url: string, options: ClientOptions = {}): Promise<TestSocket> {
  const socket = new WebSocket(url, options);
  const frames: ServerFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    frames.push(ServerFrame.parse(JSON.parse(data.toString('utf8'))));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
  });
  return {
    socket,
    frames,
    closed,
    send: (frame) => socket.send(JSON.stringify(frame)),
    sendRaw: (data) => socket.send(data),
    next(type, match = () => true, timeoutMs = 5_000) {
      type Wanted = Extract<ServerFrame, { type: typeof type }>;
      return new Promise<Wanted>((resolve, reject) => {
        const check = () => {
          const index = frames.findIndex((f) => f.type === type && match(f as Wanted));
          if (index >= 0) {
            const [found] = frames.splice(index, 1);
            cleanup();
            resolve(found as Wanted);
          } else if (socket.readyState === WebSocket.CLOSED) {
            cleanup();
            reject(new Error(`socket closed while waiting for ${type}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => socket.close(),
  };
}

/** Opens a socket and authenticates; resolves after `ready`. */
export async function openAuthenticated(url: string, token: string, options: ClientOptions = {}): Promise<TestSocket> {
  const client = await openSocket(url, options);
  client.send({ type: 'auth', token });
  await client.next('ready');
  return client;
}
