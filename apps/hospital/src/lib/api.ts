/**
 * The console's API client. Requests are built from the contract's route table and answers are parsed by
 * the contract's schemas, so a server that drifts from the contract shows up as an error here, not as a
 * blank field on a screen staff rely on. Errors carry the text to show: the server's `message` as-is
 * (spec §8), or the §8 text for no response, 502, 503 and anything else.
 */
import {
  ErrorBody,
  authorizationHeader,
  buildPath,
  createMessages,
  routes,
  type RouteName,
  type Routes,
} from '@inbound/contract';
import type { z } from 'zod';

export class ApiError extends Error {
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  constructor(message: string, status: number | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

const text = createMessages();

/** The message to show for a failed call: the server's own message when it sent one, else the §8 text. */
export function errorMessageFor(status: number | null, body: unknown): string {
  if (status === null) return text.noResponse;
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success && parsed.data.message.trim() !== '') return parsed.data.message;
  if (status === 502) return text.badGateway;
  if (status === 503) return text.serviceUnavailable;
  return text.unexpected;
}

type Def<N extends RouteName> = Routes[N];
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
export type ResponseOf<N extends RouteName> = Def<N>['response'] extends z.ZodType
  ? z.infer<Def<N>['response']>
  : undefined;

export type RequestOptions<N extends RouteName> = {
  params?: Def<N> extends { params: z.ZodType } ? Infer<Def<N>['params']> : never;
  query?: Def<N> extends { query: z.ZodType } ? Infer<Def<N>['query']> : never;
  body?: Def<N> extends { body: z.ZodType } ? Infer<Def<N>['body']> : never;
  /** Sent as `Idempotency-Key`: the server answers a retry with the first result instead of acting twice. */
  idempotencyKey?: string;
};

export interface ApiClientOptions {
  /** Origin (and prefix) of the API; '' for the same origin the console is served from. */
  baseUrl?: string;
  getToken: () => string | null;
  /** Called when the server says the token is no longer good (401 on an authenticated call). */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

export type ApiClient = <N extends RouteName>(name: N, options?: RequestOptions<N>) => Promise<ResponseOf<N>>;

export function createApiClient({
  baseUrl = '',
  getToken,
  onUnauthorized,
  fetch: fetchImpl,
}: ApiClientOptions): ApiClient {
  const doFetch = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  return async function call<N extends RouteName>(name: N, options: RequestOptions<N> = {}): Promise<ResponseOf<N>> {
    const route = routes[name];
    const path = buildPath(route.path, (options.params ?? {}) as Record<string, string>);
    const query = options.query ? `?${new URLSearchParams(options.query as Record<string, string>).toString()}` : '';

    const headers: Record<string, string> = { Accept: 'application/json', 'Created-At': new Date().toISOString() };
    const token = getToken();
    if (route.auth && token) headers.Authorization = authorizationHeader(token);
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}${query}`, {
        method: route.method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch {
      throw new ApiError(text.noResponse, null);
    }

    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (response.status === 401 && route.auth) onUnauthorized?.();
      throw new ApiError(errorMessageFor(response.status, body), response.status);
    }
    if (route.response === null) return undefined as ResponseOf<N>;

    const parsed = route.response.safeParse(body);
    if (!parsed.success) {
      console.error(`${route.method} ${route.path}: the answer does not match the contract`, parsed.error.issues);
      throw new ApiError(text.unexpected, response.status);
    }
    return parsed.data as ResponseOf<N>;
  };
}
