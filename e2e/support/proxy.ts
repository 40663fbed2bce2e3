/**
 * A TCP proxy in front of the test server whose link can be cut for real. Playwright's `setOffline` tells
 * the browser it is offline, so nothing is even tried; a tunnel with no coverage is different: the browser
 * believes it is online, opens connections and sends requests that are never answered. This proxy does that
 * to everything that goes through it — the page, the app's API calls and the service worker's requests.
 *
 * - `blackhole()`: connections are still accepted, but every byte either way is silently dropped, so
 *   requests hang (established connections stall, new ones open and stall). `blackhole('answers')` drops
 *   only what comes back: requests reach the server and are acted on, their answers are lost — the case
 *   an idempotency key exists for.
 * - `restore()`: bytes flow again. A connection that lost bytes can never carry a valid HTTP exchange
 *   again, so it is reset (as a carrier gateway that dropped its state does); the browser sees a network
 *   error for the request that was hanging on it. Connections idle through the cut live on.
 *   `restore({ resetDamaged: false })` leaves those connections open and still swallowing bytes, as a NAT
 *   mapping lost in the gap that nobody resets: only the client's own time-out frees what hangs on them.
 * - `cut()`: resets every open connection now, whatever the state (the link stays as it was).
 */
import { createServer, Socket, type Server } from 'node:net';

export type LinkState = 'up' | 'blackholed' | 'answers-blackholed';

export interface LinkProxy {
  /** `http://127.0.0.1:{port}`: open the app here to go through the proxy. */
  url: string;
  port: number;
  readonly state: LinkState;
  /** Bytes dropped since the proxy started (both directions). */
  readonly droppedBytes: number;
  blackhole: (which?: 'both' | 'answers') => void;
  restore: (options?: { resetDamaged?: boolean }) => void;
  cut: () => void;
  close: () => Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  /** Bytes were dropped on it: it must not carry anything again. */
  damaged: boolean;
}

export async function startLinkProxy(target: { host: string; port: number }, port = 0): Promise<LinkProxy> {
  let state: LinkState = 'up';
  let droppedBytes = 0;
  const links = new Set<Link>();

  const reset = (link: Link) => {
    links.delete(link);
    link.client.resetAndDestroy();
    link.upstream.destroy();
  };

  const server: Server = createServer((client) => {
    const upstream = new Socket();
    const link: Link = { client, upstream, damaged: false };
    links.add(link);
    // Bytes are forwarded by hand (no pipe()) so each chunk can be dropped while the link is down.
    const forward = (to: Socket, isAnswer: boolean) => (chunk: Buffer) => {
      if (link.damaged || state === 'blackholed' || (isAnswer && state === 'answers-blackholed')) {
        link.damaged = true;
        droppedBytes += chunk.length;
        return;
      }
      to.write(chunk);
    };
    client.on('data', forward(upstream, false));
    upstream.on('data', forward(client, true));
    // A close or an error on one side ends the other; errors are expected here (resets are the point).
    const end = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pause();
    upstream.connect(target.port, target.host, () => client.resume());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the proxy has no address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    get state() {
      return state;
    },
    get droppedBytes() {
      return droppedBytes;
    },
    blackhole: (which = 'both') => {
      state = which === 'both' ? 'blackholed' : 'answers-blackholed';
    },
    restore: ({ resetDamaged = true } = {}) => {
      state = 'up';
      if (resetDamaged) for (const link of [...links]) if (link.damaged) reset(link);
    },
    cut: () => {
      for (const link of [...links]) reset(link);
    },
    close: async () => {
      for (const link of [...links]) reset(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
