import { describe, expect, it, vi } from 'vitest';
import { messages, serverMessages } from '@inbound/contract';
import { ApiError, createApiClient, errorMessageFor } from './api';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const user = {
  id: 'u1',
  _id: 'u1',
  username: 'ed1',
  email: 'ed1@inbound.example',
  displayName: 'Taylor Brooks',
  features: [],
  emsAgencyMemberships: [],
  emsAgenciesAdministered: [],
  hospitalMemberships: [{ _id: 'h1' }],
  roles: ['edStaff'],
};

describe('errorMessageFor (spec §8)', () => {
  it.each([
    ['no response', null, undefined, messages.noResponse],
    ['a server message, as-is', 401, { message: serverMessages.invalidCredentials }, serverMessages.invalidCredentials],
    ['a server message on a 502 still wins', 502, { message: 'Upstream down' }, 'Upstream down'],
    ['502 without a message', 502, undefined, messages.badGateway],
    ['503 without a message', 503, {}, messages.serviceUnavailable],
    ['500 without a message', 500, 'oops', messages.unexpected],
    ['a blank message', 400, { message: '  ' }, messages.unexpected],
  ])('%s', (_case, status, body, expected) => {
    expect(errorMessageFor(status, body)).toBe(expected);
  });
});

describe('createApiClient', () => {
  it('sends the JWT header on authenticated calls and parses the answer with the contract', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(jsonResponse(200, user));
    const api = createApiClient({ getToken: () => 'abc', fetch });

    await expect(api('me')).resolves.toMatchObject({ displayName: 'Taylor Brooks' });

    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/v4/users/me');
    expect((init?.headers as Record<string, string>).Authorization).toBe('JWT abc');
    expect((init?.headers as Record<string, string>)['Created-At']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('fills path parameters and never sends the token on sign-in', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValue(
        jsonResponse(200, { authorizationToken: { token: 't', expirationDate: '2030-01-01T00:00:00.000Z' } }),
      );
    const api = createApiClient({ getToken: () => 'old', fetch });

    await api('signIn', { body: { username: 'ed1', password: 'pw', twiageClient: 'hospital', platform: 'web' } });

    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/v4/auth/signin');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(JSON.parse(String(init?.body))).toMatchObject({ twiageClient: 'hospital', platform: 'web' });
  });

  it('maps a failed fetch to the no-connection text', async () => {
    const api = createApiClient({
      getToken: () => 't',
      fetch: vi.fn<typeof globalThis.fetch>().mockRejectedValue(new TypeError('Failed to fetch')),
    });
    await expect(api('me')).rejects.toEqual(new ApiError(messages.noResponse, null));
  });

  it('tells the session about a 401 and shows the server message', async () => {
    const onUnauthorized = vi.fn();
    const api = createApiClient({
      getToken: () => 't',
      onUnauthorized,
      fetch: vi
        .fn<typeof globalThis.fetch>()
        .mockResolvedValue(jsonResponse(401, { message: serverMessages.tokenInvalid })),
    });
    await expect(api('me')).rejects.toMatchObject({ status: 401, message: serverMessages.tokenInvalid });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not treat a wrong password as an expired session', async () => {
    const onUnauthorized = vi.fn();
    const api = createApiClient({
      getToken: () => null,
      onUnauthorized,
      fetch: vi
        .fn<typeof globalThis.fetch>()
        .mockResolvedValue(jsonResponse(401, { message: serverMessages.invalidCredentials })),
    });
    await expect(
      api('signIn', { body: { username: 'ed1', password: 'x', twiageClient: 'hospital', platform: 'web' } }),
    ).rejects.toMatchObject({ message: serverMessages.invalidCredentials });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('rejects an answer that does not match the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = createApiClient({
      getToken: () => 't',
      fetch: vi.fn<typeof globalThis.fetch>().mockResolvedValue(jsonResponse(200, { id: 'u1' })),
    });
    await expect(api('me')).rejects.toMatchObject({ message: messages.unexpected });
  });
});
