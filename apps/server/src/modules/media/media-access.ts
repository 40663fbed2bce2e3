/**
 * Links to one media file that work without the Authorization header, for `<video>` and `<img>` in
 * the console (they cannot send it, and a blob download would give up range requests). The link
 * carries `access={expiry}.{holder}.{signature}`: an HMAC over the file's path, the expiry and the
 * holder (the user and the session it was made for), with a key derived from the server's secret. It
 * is handed out only to a user allowed to see the case, names exactly one file, and expires after
 * minutes; on every fetch the holder's session must still be live and the user still allowed to see the
 * case (a link does not outlive its holder's access). Query strings are never logged.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkHolder {
  userId: string;
  sessionId: string;
}

export interface MediaLinks {
  sign(path: string, expiresAtMs: number, holder: LinkHolder): string;
  /** The holder when `access` is a valid, unexpired signature for `path`; null otherwise. */
  verify(path: string, access: string, nowMs: number): LinkHolder | null;
}

export function createMediaLinks(serverSecret: string): MediaLinks {
  // A key of its own: a media link can never be mistaken for (or help forge) anything else signed.
  const key = createHmac('sha256', serverSecret).update('inbound media links v2').digest();
  const signature = (path: string, expiresAtMs: number, holder: string) =>
    createHmac('sha256', key).update(`${path}\n${expiresAtMs}\n${holder}`).digest('base64url');

  return {
    sign(path, expiresAtMs, { userId, sessionId }) {
      const holder = Buffer.from(`${userId}\n${sessionId}`).toString('base64url');
      return `${path}?access=${expiresAtMs}.${holder}.${signature(path, expiresAtMs, holder)}`;
    },
    verify(path, access, nowMs) {
      const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(access);
      if (!match) return null;
      const expiresAtMs = Number(match[1]);
      const holder = match[2] ?? '';
      if (expiresAtMs < nowMs) return null;
      const expected = Buffer.from(signature(path, expiresAtMs, holder));
      const given = Buffer.from(match[3] ?? '');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      const [userId, sessionId] = Buffer.from(holder, 'base64url').toString('utf8').split('\n');
      return userId && sessionId ? { userId, sessionId } : null;
    },
  };
}
