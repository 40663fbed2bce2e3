/**
 * The API client both apps use. Every call is named by its route in the contract: method and path come
 * from `routeRequest`, the body goes out as JSON, and the answer is parsed with the route's response
 * schema — a server that drifts from the contract shows up as an error here, not as a blank field on a
 * screen. How a failure reads differs per app (the crew maps kinds to §8 texts at the screen; the
 * console carries the text in the error), so each app turns an `ApiFailure` into its own error.
 */
import {
  ErrorBody,
  authorizationHeader,
  routes,
  type RouteBody,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@inbound/contract';
import type { z } from 'zod';
import { routeRequest } from './routeRequest';

export interface CallOptions<K extends RouteName> {
  params?: RouteParams<K>;
  query?: RouteQuery<K>;
  body?: RouteBody<K>;
  /** A file sent as the body, bytes as they are, with its own Content-Type (routes whose body is a file). */
  file?: { data: Blob; contentType: string };
  /** Sent as `Idempotency-Key`: the server answers a retry with the first result instead of acting twice. */
  idempotencyKey?: string;
  /** Use this token instead of the stored one (sign-in loads the user before the session is set; sign-out). */
  token?: string;
  signal?: AbortSignal;
}

/** Why a call failed: no answer at all, an HTTP error, or an answer that does not match the contract. */
export type ApiFailure =
  | { kind: 'noResponse' }
  | { kind: 'http'; status: number; body: unknown; serverMessage: string | null }
  | { kind: 'invalidResponse'; status: number; issues: readonly z.core.$ZodIssue[] };

export interface ApiClientOptions {
  getToken: () => string | null;
  /** A 401 on an authenticated route: the session decides (sign out, or validate the token first). */
  onUnauthorized?: () => void;
  /** The error a failed call rejects with. */
  toError: (failure: ApiFailure, route: { method: string; path: string }) => Error;
  /** Origin (and prefix) of the API; '' for the origin the app is served from. */
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface ApiClient {
  call<K extends RouteName>(name: K, options?: CallOptions<K>): Promise<RouteResponse<K>>;
}

export function createApiClient({
  getToken,
  onUnauthorized,
  toError,
  baseUrl = '',
  fetch: injectedFetch,
  now = () => new Date(),
}: ApiClientOptions): ApiClient {
  const doFetch: typeof fetch = injectedFetch ?? ((...args) => fetch(...args));

  async function call<K extends RouteName>(name: K, options: CallOptions<K> = {}): Promise<RouteResponse<K>> {
    const route = routes[name];
    const target = routeRequest(name, { params: options.params, query: options.query });
    const headers: Record<string, string> = { Accept: 'application/json', 'Created-At': now().toISOString() };
    const token = options.token ?? (route.auth ? getToken() : null);
    if (token) headers.Authorization = authorizationHeader(token);
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.file) headers['Content-Type'] = options.file.contentType;
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

    let response: Response;
    try {
      response = await doFetch(baseUrl + target.path, {
        method: target.method,
        headers,
        body: options.file ? options.file.data : options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw toError({ kind: 'noResponse' }, route);
    }

    const body = await readJson(response);
    if (!response.ok) {
      if (response.status === 401 && route.auth) onUnauthorized?.();
      const parsed = ErrorBody.safeParse(body);
      const serverMessage = parsed.success ? parsed.data.message : null;
      throw toError({ kind: 'http', status: response.status, body, serverMessage }, route);
    }
    return parseResponse(name, response.status, body, route);
  }

  function parseResponse<K extends RouteName>(
    name: K,
    status: number,
    body: unknown,
    route: { method: string; path: string },
  ): RouteResponse<K> {
    const schema: z.ZodType | null = routes[name].response;
    // Routes that answer nothing resolve to `void`; RouteResponse<K> is `void` exactly for them.
    if (schema === null) return undefined as RouteResponse<K>;
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw toError({ kind: 'invalidResponse', status, issues: parsed.error.issues }, route);
    // The schema is routes[name].response, whose output type RouteResponse<K> names.
    return parsed.data as RouteResponse<K>;
  }

  return { call };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}
