/**
 * The crew app's API client: the shared one (@inbound/client — every call named by its route in the
 * contract, every answer parsed with its schema), failing with the crew's `ApiError` kinds, which the
 * screens map to the spec's §8 texts. Same origin (the server serves this app; Vite's dev server
 * proxies the API paths).
 */
import {
  createApiClient as createSharedApiClient,
  type ApiClient,
  type ApiClientOptions as SharedOptions,
  type ApiFailure,
} from '@inbound/client';
import { ApiError } from './apiError';

export { ApiError, type ApiErrorKind } from './apiError';
export type { ApiClient, CallOptions } from '@inbound/client';

export type ApiClientOptions = Omit<SharedOptions, 'toError'>;

export function createApiClient(options: ApiClientOptions): ApiClient {
  return createSharedApiClient({ ...options, toError: crewApiError });
}

function crewApiError(failure: ApiFailure): ApiError {
  switch (failure.kind) {
    case 'noResponse':
      return new ApiError('noResponse');
    case 'http':
      return new ApiError('http', failure.status, failure.serverMessage);
    case 'invalidResponse':
      return new ApiError('invalidResponse', failure.status);
  }
}
