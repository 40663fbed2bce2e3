import { describe, expect, it } from 'vitest';
import { messages } from '@inbound/contract';
import { ApiError } from './apiError';
import { errorMessage } from './errors';

describe('errorMessage (spec §8)', () => {
  it.each([
    ['no response', new ApiError('noResponse'), messages.noResponse],
    [
      'a server message, as-is',
      new ApiError('http', 401, 'The username or password is incorrect.'),
      'The username or password is incorrect.',
    ],
    [
      'a server message wins over the status',
      new ApiError('http', 503, 'Down for maintenance until 02:00.'),
      'Down for maintenance until 02:00.',
    ],
    ['502', new ApiError('http', 502), 'Inbound servers are down, or being upgraded.'],
    ['503', new ApiError('http', 503), 'The Inbound servers are up, but overloaded with requests. Try again later.'],
    ['500', new ApiError('http', 500), messages.unexpected],
    ['404 without message', new ApiError('http', 404), messages.unexpected],
    ['an unreadable answer', new ApiError('invalidResponse', 200), messages.unexpected],
    ['anything else', new Error('boom'), messages.unexpected],
  ])('%s', (_case, error, expected) => {
    expect(errorMessage(error)).toBe(expected);
  });

  it('says no internet in the spec words', () => {
    expect(errorMessage(new ApiError('noResponse'))).toBe(
      'No internet connection.\n Please check that your internet connection is working and try again.',
    );
  });
});
