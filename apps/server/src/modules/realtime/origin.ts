/**
 * Which pages may open /realtime. A browser always sends Origin on a WebSocket upgrade, and a page of
 * another site must not ride a crew's session: allowed are the server's own host (the apps it serves),
 * PUBLIC_URL's origin and REALTIME_ALLOWED_ORIGINS. An upgrade without Origin is no browser's (the desktop
 * host, a test, a bench) and is let through — it still has to authenticate with a token like anyone.
 */
export function originAllowed(
  origin: string | undefined,
  /** The server's own origin as this request reached it (scheme://host[:port]). */
  self: string | undefined,
  allowed: { publicUrl: string | null; extra: readonly string[] },
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  // Scheme, host and port: an http:// page on the same host is not the https:// app.
  if (self !== undefined && URL.canParse(self) && new URL(self).origin === parsed.origin) return true;
  if (allowed.publicUrl !== null && new URL(allowed.publicUrl).origin === parsed.origin) return true;
  return allowed.extra.includes(parsed.origin);
}
