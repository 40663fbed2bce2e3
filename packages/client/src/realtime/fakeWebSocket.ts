/**
 * A WebSocket stand-in the tests drive from the server's side (jsdom's real one would try the network).
 * Installed globally by test/setup.ts; `FakeWebSocket.instances` lists every socket the app opened.
 */
import type { ClientFrame, ServerFrame } from '@inbound/contract';

export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  static last(): FakeWebSocket | undefined {
    return FakeWebSocket.instances[FakeWebSocket.instances.length - 1];
  }

  readyState = 0;
  sent: ClientFrame[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }

  // ---- the server's side
  accept() {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(frame: ServerFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  ready(heartbeatMs = 20_000) {
    this.frame({ type: 'ready', userId: 'u1', heartbeatMs });
  }
  /** accept + ready, as a gateway that takes the token. */
  open(heartbeatMs?: number) {
    this.accept();
    this.ready(heartbeatMs);
  }
  message(channel: string, seq: number, type = 'chat.message', data: unknown = { seq }) {
    this.frame({ type: 'message', channel, seq, event: { type, data } });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  subscribes() {
    return this.sent.filter((frame) => frame.type === 'subscribe');
  }
  subscribedTo(channel: string): boolean {
    return this.subscribes().some((frame) => frame.type === 'subscribe' && frame.channel === channel);
  }
}
