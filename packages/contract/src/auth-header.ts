/** The spec's auth header: `Authorization: JWT {token}`. Both ends use these two functions. */
export const AUTH_SCHEME = 'JWT';

export function authorizationHeader(token: string): string {
  return `${AUTH_SCHEME} ${token}`;
}

/** The token of an `Authorization` header, or null when the header is absent or of another scheme. */
export function tokenFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (rest.length > 0 || !token || scheme?.toUpperCase() !== AUTH_SCHEME) return null;
  return token;
}
