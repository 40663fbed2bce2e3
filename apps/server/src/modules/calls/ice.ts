/**
 * ICE servers for one call. TURN credentials follow the TURN REST API that coturn implements with
 * `use-auth-secret` / `static-auth-secret`: username = "<expiry unix seconds>:<user id>", password =
 * base64(HMAC-SHA1(secret, username)). coturn checks the HMAC and refuses the username after its expiry,
 * so a leaked credential is worth one TTL, and the shared secret itself never leaves the server.
 */
import { createHmac } from 'node:crypto';
import type { IceConfig, IceServer } from '@inbound/contract';

export interface IceSettings {
  /** ICE_SERVERS: STUN (and any statically configured TURN). */
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  turn: { urls: string[]; secret: string; ttlMs: number } | null;
  iceTransportPolicy: 'all' | 'relay';
}

export function turnCredential(secret: string, userId: string, expiresAtSeconds: number) {
  const username = `${expiresAtSeconds}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

export function iceConfigFor(settings: IceSettings, userId: string, now: Date): IceConfig {
  const servers: IceServer[] = settings.iceServers.map((s) => ({
    urls: Array.isArray(s.urls) ? s.urls : [s.urls],
    ...(s.username !== undefined ? { username: s.username } : {}),
    ...(s.credential !== undefined ? { credential: s.credential } : {}),
  }));
  if (!settings.turn) return { iceServers: servers, iceTransportPolicy: settings.iceTransportPolicy, ttlSeconds: 0 };
  const ttlSeconds = Math.round(settings.turn.ttlMs / 1000);
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  servers.push({ urls: settings.turn.urls, ...turnCredential(settings.turn.secret, userId, expires) });
  return { iceServers: servers, iceTransportPolicy: settings.iceTransportPolicy, ttlSeconds };
}
