/**
 * A hospital console as the benches hold one: its user signed in, and a WebSocket on a channel as the
 * console keeps it (auth, then subscribe once the server is ready). Each message frame goes to
 * `onMessage` with the time it arrived.
 */
import { WebSocket } from 'ws';
import { ServerFrame } from '@inbound/contract';

export async function signInAs(url: string, username: string, client: 'ems' | 'hospital'): Promise<string> {
  const res = await fetch(`${url}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: `demo-${username}`, twiageClient: client, platform: 'web' }),
  });
  if (!res.ok) throw new Error(`sign-in ${username}: ${res.status}`);
  return ((await res.json()) as { authorizationToken: { token: string } }).authorizationToken.token;
}

export type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

/** Subscribed once it resolves; `close` ends the socket. */
export async function subscribe(
  url: string,
  token: string,
  channel: string,
  onMessage: (frame: MessageFrame, arrivedAt: number) => void,
): Promise<{ close: () => void }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/realtime`);
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (raw) => {
      const arrivedAt = performance.now();
      const frame = ServerFrame.safeParse(JSON.parse(String(raw)));
      if (!frame.success) return;
      if (frame.data.type === 'ready') ws.send(JSON.stringify({ type: 'subscribe', channel }));
      if (frame.data.type === 'subscribed') resolve();
      if (frame.data.type === 'message') onMessage(frame.data, arrivedAt);
    });
  });
  return { close: () => ws.close() };
}
