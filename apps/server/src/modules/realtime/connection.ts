/**
 * One socket of /realtime: the auth handshake, frame size and rate bounds, and its subscriptions.
 * The gateway (realtime.service.ts) owns the timers shared by all sockets (heartbeat, revocation).
 */
import type { WebSocket } from 'ws';
import {
  ClientFrame,
  REALTIME_CLOSE,
  authorizationHeader,
  describeUnsafeText,
  findUnsafeText,
  parseChannelName,
  type ServerFrame,
} from '@inbound/contract';
import type { Principal } from '../auth/principal.js';
import type { ChannelAuthorizers } from './channel-authorizers.js';
import type { ChannelStreams, Subscriber } from './channel-streams.js';

/** A client that sends nothing within this time after connecting is closed with 4401. */
export const AUTH_TIMEOUT_MS = 5_000;
/** Subscriptions one socket may hold at once: bounds what one client can make the server keep. */
export const MAX_SUBSCRIPTIONS = 200;
/** A socket whose unsent output grows past this is too slow to keep up and is dropped. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** A socket's principal older than this is read again before a new subscription is checked. */
export const PRINCIPAL_FRESH_MS = 2_000;

export interface ConnectionDeps {
  authenticate(authorization: string): Promise<Principal>;
  /**
   * The principal as it is now (roles and memberships read again, no cache), or null when the user is
   * gone or disabled. Without it, checks use the principal of the auth frame for the socket's lifetime.
   */
  reloadPrincipal?(principal: Principal): Promise<Principal | null>;
  authorizers: ChannelAuthorizers;
  streams: ChannelStreams;
  heartbeatMs: number;
  maxFrameBytes: number;
  maxMessagesPerSecond: number;
  onAuthenticated(connection: Connection): void;
  onClosed(connection: Connection): void;
  /** A subscription to the channel is being authorised (`true`) / its check has finished (`false`). */
  onAuthorizing(connection: Connection, channel: string, authorizing: boolean): void;
  logError(error: unknown, what: string): void;
}

export class Connection implements Subscriber {
  principal: Principal | null = null;
  /** When `principal` was read (ms). */
  private principalAt = 0;
  /** Set by any frame or pong; the heartbeat sweep clears it and closes a socket that stayed silent. */
  alive = true;
  readonly channels = new Set<string>();
  private tokens: number;
  private refilledAt = Date.now();
  private authTimer: NodeJS.Timeout | null;
  private closed = false;
  /** Channels whose subscription is being authorised → whether access to it changed during the check. */
  private readonly authorizing = new Map<string, boolean>();
  /** Frames that arrived while the auth frame was being checked. */
  private waiting: ClientFrame[] | null = null;

  constructor(
    readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.tokens = deps.maxMessagesPerSecond * 2;
    this.authTimer = setTimeout(
      () => this.close(REALTIME_CLOSE.unauthorized, 'authentication timed out'),
      AUTH_TIMEOUT_MS,
    );
    socket.on('message', (data, isBinary) => this.onFrame(data as Buffer | Buffer[] | ArrayBuffer, isBinary));
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('close', () => this.onClose());
    socket.on('error', () => this.close(1011, 'socket error'));
  }

  send(frame: string): void {
    if (this.closed) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'too slow');
      return;
    }
    this.socket.send(frame);
  }

  private sendFrame(frame: ServerFrame): void {
    this.send(JSON.stringify(frame));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.cleanUp();
    this.socket.close(code, reason);
    // A dead peer never answers the close handshake; don't keep its socket waiting for it.
    setTimeout(() => this.socket.terminate(), 1_000).unref();
  }

  private onClose(): void {
    this.closed = true;
    this.cleanUp();
  }

  private cleanedUp = false;
  private cleanUp(): void {
    if (this.cleanedUp) return;
    this.cleanedUp = true;
    if (this.authTimer) clearTimeout(this.authTimer);
    for (const channel of this.channels) this.deps.streams.unsubscribe(this, channel);
    this.channels.clear();
    this.deps.onClosed(this);
  }

  /** Token bucket: a burst of twice the per-second rate, refilled continuously. */
  private withinRate(): boolean {
    const now = Date.now();
    const rate = this.deps.maxMessagesPerSecond;
    this.tokens = Math.min(rate * 2, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private onFrame(data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean): void {
    if (this.closed) return;
    this.alive = true;
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (bytes.length > this.deps.maxFrameBytes) return this.close(REALTIME_CLOSE.tooLarge, 'frame too large');
    if (!this.withinRate()) return this.close(REALTIME_CLOSE.rateLimited, 'too many frames');
    let frame: ClientFrame;
    try {
      if (isBinary) throw new Error('binary');
      const json: unknown = JSON.parse(bytes.toString('utf8'));
      // The rule every JSON body follows (contract text-safety.ts), said with the field's path.
      const unsafe = findUnsafeText(json);
      if (unsafe) {
        if (!this.principal) return this.close(REALTIME_CLOSE.unauthorized, 'authenticate first');
        return this.sendFrame({ type: 'error', message: describeUnsafeText('frame', unsafe) });
      }
      const parsed = ClientFrame.safeParse(json);
      if (!parsed.success) throw new Error('shape');
      frame = parsed.data;
    } catch {
      if (!this.principal) return this.close(REALTIME_CLOSE.unauthorized, 'authenticate first');
      return this.sendFrame({ type: 'error', message: 'The frame is not valid.' });
    }
    if (!this.principal) {
      // Frames sent right behind the auth frame wait for its answer instead of being refused.
      if (this.waiting) return void this.waiting.push(frame);
      if (frame.type !== 'auth') return this.close(REALTIME_CLOSE.unauthorized, 'authenticate first');
      this.waiting = [];
      void this.authenticate(frame.token);
      return;
    }
    this.handle(frame);
  }

  private handle(frame: ClientFrame): void {
    switch (frame.type) {
      case 'auth':
        return this.sendFrame({ type: 'error', message: 'Already authenticated.' });
      case 'ping':
        return this.sendFrame({ type: 'pong' });
      case 'subscribe':
        void this.subscribe(frame.channel, frame.lastSeq);
        return;
      case 'unsubscribe':
        this.channels.delete(frame.channel);
        this.deps.streams.unsubscribe(this, frame.channel);
        return;
    }
  }

  private async authenticate(token: string): Promise<void> {
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
    try {
      this.principal = await this.deps.authenticate(authorizationHeader(token));
      this.principalAt = Date.now();
    } catch {
      return this.close(REALTIME_CLOSE.unauthorized, 'not authenticated');
    }
    if (this.closed) return;
    this.deps.onAuthenticated(this);
    this.sendFrame({ type: 'ready', userId: this.principal.userId, heartbeatMs: this.deps.heartbeatMs });
    const waiting = this.waiting ?? [];
    this.waiting = null;
    for (const frame of waiting) this.handle(frame);
  }

  /**
   * Access to the channel changed: checks this socket's subscription to it again and ends it if now
   * refused (the socket stays open for its other channels). Messages of the channel wait meanwhile.
   * A check that fails ends the subscription too — continuing unchecked would be the unsafe side.
   */
  async reauthorize(channel: string): Promise<void> {
    if (this.authorizing.has(channel)) this.authorizing.set(channel, true);
    const parsed = parseChannelName(channel);
    if (!parsed || !this.principal || !this.channels.has(channel)) return;
    this.deps.streams.hold(this, channel);
    let allowed = false;
    let message = 'You no longer have access to this channel.';
    try {
      // The change may be to the user's own roles or memberships (an administrator's edit): read them again.
      const principal = await this.freshPrincipal(0);
      if (!principal) return;
      allowed = await this.deps.authorizers.mayAccess(principal, parsed.kind, parsed.id);
    } catch (error) {
      this.deps.logError(error, 'channel re-authorisation failed');
      message = 'Your access to this channel could not be checked; subscribe again.';
    }
    if (allowed || this.closed || !this.channels.has(channel)) {
      this.deps.streams.release(this, channel);
      return;
    }
    this.channels.delete(channel);
    this.deps.streams.unsubscribe(this, channel);
    this.sendFrame({ type: 'error', channel, message });
  }

  /**
   * The principal, read again when older than `maxAgeMs` (and `reloadPrincipal` is given). A user now
   * gone or disabled closes the socket as revoked and answers null.
   */
  private async freshPrincipal(maxAgeMs: number): Promise<Principal | null> {
    const current = this.principal;
    if (!current || !this.deps.reloadPrincipal || Date.now() - this.principalAt < maxAgeMs) return current;
    const startedAt = Date.now();
    const fresh = await this.deps.reloadPrincipal(current);
    if (!fresh) {
      this.close(REALTIME_CLOSE.revoked, 'account disabled');
      return null;
    }
    if (startedAt >= this.principalAt) {
      this.principal = fresh;
      this.principalAt = startedAt;
    }
    return fresh;
  }

  private async subscribe(channel: string, lastSeq: number | undefined): Promise<void> {
    const parsed = parseChannelName(channel);
    if (!parsed || !this.principal) return;
    if (!this.channels.has(channel) && this.channels.size >= MAX_SUBSCRIPTIONS) {
      return this.sendFrame({ type: 'error', channel, message: 'Too many subscriptions on one connection.' });
    }
    let allowed: boolean | undefined;
    this.deps.onAuthorizing(this, channel, true);
    try {
      // Access changed while this check ran (`reauthorize`): its answer may be the old one, so ask again.
      do {
        this.authorizing.set(channel, false);
        // A repeat (access changed meanwhile) reads the principal again: the change may be to the user.
        const principal = await this.freshPrincipal(allowed === undefined ? PRINCIPAL_FRESH_MS : 0);
        if (!principal) return;
        allowed = await this.deps.authorizers.mayAccess(principal, parsed.kind, parsed.id);
      } while (this.authorizing.get(channel));
    } catch (error) {
      this.deps.logError(error, 'channel authorisation failed');
      return this.sendFrame({ type: 'error', channel, message: 'The subscription could not be checked; try again.' });
    } finally {
      this.authorizing.delete(channel);
      this.deps.onAuthorizing(this, channel, false);
    }
    if (this.closed) return;
    if (!allowed)
      return this.sendFrame({ type: 'error', channel, message: 'Not allowed to subscribe to this channel.' });
    this.channels.add(channel);
    try {
      await this.deps.streams.subscribe(this, channel, lastSeq);
    } catch (error) {
      this.channels.delete(channel);
      this.deps.logError(error, 'subscription failed');
      this.sendFrame({ type: 'error', channel, message: 'The subscription failed; try again.' });
    }
    // Closed while catching up: the close already unsubscribed every channel but this late one.
    if (this.closed) this.deps.streams.unsubscribe(this, channel);
  }
}
