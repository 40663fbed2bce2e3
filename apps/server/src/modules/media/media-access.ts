/**
 * Links to one media file that work without the Authorization header, for `<video>` and `<img>` in
 * the console (they cannot send it, and a blob download would give up range requests). The link
 * carries `access={expiry}.{signature}`: an HMAC over the file's path and the expiry, with a key
 * derived from the server's secret. It is handed out only to a user allowed to see the case, names
 * exactly one file, and expires after minutes; query strings are never logged.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface MediaLinks {
  sign(path: string, expiresAtMs: number): string;
  /** Whether `access` is a valid, unexpired signature for `path`. */
  verify(path: string, access: string, nowMs: number): boolean;
}

export function createMediaLinks(serverSecret: string): MediaLinks {
  // A key of its own: a media link can never be mistaken for (or help forge) anything else signed.
  const key = createHmac('sha256', serverSecret).update('inbound media links v1').digest();
  const signature = (path: string, expiresAtMs: number) =>
    createHmac('sha256', key).update(`${path}\n${expiresAtMs}`).digest('base64url');

  return {
    sign(path, expiresAtMs) {
      return `${path}?access=${expiresAtMs}.${signature(path, expiresAtMs)}`;
    },
    verify(path, access, nowMs) {
      const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(access);
      if (!match) return false;
      const expiresAtMs = Number(match[1]);
      if (expiresAtMs < nowMs) return false;
      const expected = Buffer.from(signature(path, expiresAtMs));
      const given = Buffer.from(match[2] ?? '');
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
