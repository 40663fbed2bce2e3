/** Error mapping of spec §8: what the crew reads when a call fails. */
import { messages as defaultMessages, type Messages } from '@inbound/contract';
import { ApiError } from './apiError';

export function errorMessage(error: unknown, messages: Messages = defaultMessages): string {
  if (!(error instanceof ApiError)) return messages.unexpected;
  if (error.kind === 'noResponse') return messages.noResponse;
  // The server's own words come first: every error it sends carries `{ message }` (ARCHITECTURE.md).
  if (error.serverMessage) return error.serverMessage;
  if (error.status === 502) return messages.badGateway;
  if (error.status === 503) return messages.serviceUnavailable;
  return messages.unexpected;
}
