/**
 * The server's VAPID key pair (RFC 8292): made on first start and kept in DATA_DIR (mode 600), like the
 * JWT secret, because browsers bind their push subscriptions to the public key — a new key on every
 * restart would silently orphan every subscription.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';

export const VAPID_KEYS_FILE = 'vapid-keys.json';

const VapidKeys = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });
export type VapidKeys = z.infer<typeof VapidKeys>;

export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  if (existsSync(file)) {
    const stored = VapidKeys.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (stored.success) return stored.data;
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}
