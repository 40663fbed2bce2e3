/**
 * The real-time protocol over the one WebSocket endpoint `/realtime` (ARCHITECTURE.md "Real time").
 * Every frame is one JSON object. The first frame a client sends is `auth` with its JWT (never in the
 * URL, which proxies and logs keep); until it is accepted nothing else is. Each channel has a sequence
 * number kept in the database: a client subscribing with `lastSeq` first gets, in order, every message
 * after it, then live ones — no gaps, no doubles.
 */
import { z } from 'zod';

/** Channel names: `case:{id}`, `hospital:{id}`, `hospital-status:{id}`, `broadcast:{agencyId}`, `transfer:{id}`, `user:{id}`, `call:{id}` (calls.ts), `consult:{id}` (consults.ts). */
export const CHANNEL_KINDS = [
  'case',
  'hospital',
  'hospital-status',
  'broadcast',
  'transfer',
  'user',
  'call',
  'consult',
] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const ChannelName = z
  .string()
  .max(140)
  .regex(
    /^(case|hospital|hospital-status|broadcast|transfer|user|call|consult):[A-Za-z0-9_-]{1,128}$/,
    'not a channel name',
  );
export type ChannelName = z.infer<typeof ChannelName>;

export function channelName(kind: ChannelKind, id: string): string {
  return `${kind}:${id}`;
}

export function parseChannelName(name: string): { kind: ChannelKind; id: string } | null {
  if (!ChannelName.safeParse(name).success) return null;
  const colon = name.indexOf(':');
  return { kind: name.slice(0, colon) as ChannelKind, id: name.slice(colon + 1) };
}

/**
 * What travels on a channel. `type` names the change (e.g. 'case.updated', 'chat.message',
 * 'hospital.status', 'broadcast.message', 'CASE_TRANSFER_UPDATED'); `data` is that change's payload,
 * shaped by the schema of the entity it carries.
 */
export const RealtimeEvent = z.object({ type: z.string().min(1).max(64), data: z.unknown() });
export type RealtimeEvent = z.infer<typeof RealtimeEvent>;

// ---- client → server -----------------------------------------------------------------------------
export const ClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  z.object({
    type: z.literal('subscribe'),
    channel: ChannelName,
    /** The last sequence number this client has of the channel; omitted = only live messages. */
    lastSeq: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), channel: ChannelName }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

// ---- server → client -----------------------------------------------------------------------------
export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string(), heartbeatMs: z.number().int().positive() }),
  /** Subscription accepted; `seq` is the channel's current sequence number after any catch-up. */
  z.object({ type: z.literal('subscribed'), channel: ChannelName, seq: z.number().int().min(0) }),
  z.object({
    type: z.literal('message'),
    channel: ChannelName,
    seq: z.number().int().positive(),
    event: RealtimeEvent,
  }),
  /** A refused subscription (`channel` set) or a bad frame; the socket stays open unless it says otherwise. */
  z.object({ type: z.literal('error'), channel: ChannelName.optional(), message: z.string() }),
  z.object({ type: z.literal('pong') }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** `GET /secret` (spec §7): how to connect. Our keys: the socket path and heartbeat, not vendor keys. */
export const RealtimeSecret = z.object({
  realtime: z.object({ path: z.string(), heartbeatMs: z.number().int().positive() }),
  chat: z.object({ subscribe: z.string() }),
  api: z.object({ subscribe: z.string() }),
});
export type RealtimeSecret = z.infer<typeof RealtimeSecret>;

/** WebSocket close codes the gateway uses (4000–4999 are the application's). */
export const REALTIME_CLOSE = {
  unauthorized: 4401,
  revoked: 4403,
  tooLarge: 4413,
  rateLimited: 4429,
  heartbeatTimeout: 4408,
  /**
   * 1012 "service restart" (RFC 6455 registry): this process is draining; reconnect at once (the
   * balancer sends the new socket to another process) and resume from the last sequence number.
   */
  restart: 1012,
} as const;
