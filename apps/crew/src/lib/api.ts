/**
 * The API client. Every call is named by its route in the contract (`routes` in @inbound/contract):
 * method, path, body and response schema come from there, and every response is parsed with its schema.
 * Same origin (the server serves this app; Vite's dev server proxies the API paths).
 */
import {
  ErrorBody,
  authorizationHeader,
  buildPath,
  routes,
  type RouteBody,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@inbound/contract';
import { ApiError } from './apiError';

export { ApiError, type ApiErrorKind } from './apiError';

export interface CallOptions<K extends RouteName> {
  params?: RouteParams<K>;
  query?: RouteQuery<K>;
  body?: RouteBody<K>;
  /** Use this token instead of the stored one (sign-in loads the user before the session is set). */
  token?: string;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** The stored token, if any. */
  getToken: () => string | null;
  /** A 401 on an authenticated route: the session decides (validate the token, log out, or ask to re-authenticate). */
  onUnauthorized: () => void;
  baseUrl?: string;
  now?: () => Date;
}

export interface ApiClient {
  call<K extends RouteName>(name: K, options?: CallOptions<K>): Promise<RouteResponse<K>>;
}

export function createApiClient({
  getToken,
  onUnauthorized,
  baseUrl = '',
  now = () => new Date(),
}: ApiClientOptions): ApiClient {
  return {
    async call(name, options = {}) {
      const route = routes[name];
      const url =
        baseUrl + buildPath(route.path, (options.params ?? {}) as Record<string, string>) + queryString(options.query);
      const headers: Record<string, string> = { Accept: 'application/json', 'Created-At': now().toISOString() };
      const token = options.token ?? getToken();
      if (token) headers.Authorization = authorizationHeader(token);
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';

      let response: Response;
      try {
        response = await fetch(url, {
          method: route.method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: options.signal,
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new ApiError('noResponse');
      }

      if (!response.ok) {
        const parsed = ErrorBody.safeParse(await readJson(response));
        if (response.status === 401 && route.auth) onUnauthorized();
        throw new ApiError('http', response.status, parsed.success ? parsed.data.message : null);
      }
      if (route.response === null) return undefined as RouteResponse<typeof name>;
      const parsed = route.response.safeParse(await readJson(response));
      if (!parsed.success) throw new ApiError('invalidResponse', response.status);
      return parsed.data as RouteResponse<typeof name>;
    },
  };
}

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}
