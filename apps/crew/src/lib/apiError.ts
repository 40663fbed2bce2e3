/**
 * Why a call failed: no answer at all, an HTTP error (with the server's `{ message }` if any), or an
 * answer we cannot read. Kept apart from the client (and its schemas) so the first screen can map
 * errors without loading the contract's schemas.
 */
export type ApiErrorKind = 'noResponse' | 'http' | 'invalidResponse';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number | null = null,
    readonly serverMessage: string | null = null,
  ) {
    super(serverMessage ?? `${kind}${status === null ? '' : ` ${status}`}`);
    this.name = 'ApiError';
  }
}
