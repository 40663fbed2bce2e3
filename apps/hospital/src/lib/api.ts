/**
 * The console's API client: the shared one (@inbound/client). Requests are built from the contract's route
 * table and answers are parsed by the contract's schemas, so a server that drifts from the contract shows up as an error here, not as a
 * blank field on a screen staff rely on. Errors carry the text to show: the server's `message` as-is
 * (spec §8), or the §8 text for no response, 502, 503 and anything else.
 */
import {
  createApiClient as createSharedApiClient,
  type ApiClientOptions as SharedOptions,
  type ApiFailure,
  type CallOptions,
} from '@inbound/client';
import { ErrorBody, createMessages, type RouteName, type RouteResponse } from '@inbound/contract';

export class ApiError extends Error {
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  /** The server's `code` when it sent one (e.g. mfa_required). */
  readonly code: string | undefined;
  constructor(message: string, status: number | null, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
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

export type ResponseOf<N extends RouteName> = RouteResponse<N>;
export type RequestOptions<N extends RouteName> = Pick<
  CallOptions<N>,
  'params' | 'query' | 'body' | 'idempotencyKey' | 'file'
>;

export type ApiClientOptions = Omit<SharedOptions, 'toError'>;

export type ApiClient = <N extends RouteName>(name: N, options?: RequestOptions<N>) => Promise<ResponseOf<N>>;

/** The shared client (@inbound/client), failing with the text to show. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createSharedApiClient({ ...options, toError: consoleApiError });
  return (name, requestOptions) => client.call(name, requestOptions);
}

function consoleApiError(failure: ApiFailure, route: { method: string; path: string }): ApiError {
  switch (failure.kind) {
    case 'noResponse':
      return new ApiError(text.noResponse, null);
    case 'http':
      return new ApiError(
        errorMessageFor(failure.status, failure.body),
        failure.status,
        ErrorBody.safeParse(failure.body).data?.code,
      );
    case 'invalidResponse':
      console.error(`${route.method} ${route.path}: the answer does not match the contract`, failure.issues);
      return new ApiError(text.unexpected, failure.status);
  }
}
