import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { medic1, riverside } from '../test/fixtures';
import { createApiClient } from './api';
import { ApiError } from './apiError';

function client(token: string | null = 'tok') {
  const onUnauthorized = vi.fn();
  const api = createApiClient({ getToken: () => token, onUnauthorized, now: () => new Date('2026-11-21T12:00:00Z') });
  return { api, onUnauthorized };
}

describe('api client', () => {
  it('sends the JWT and Created-At headers and parses with the contract schema', async () => {
    const { calls } = mockFetch({ 'GET /v4/users/me': { body: medic1 } });
    const { api } = client();
    await expect(api.call('me')).resolves.toEqual(medic1);
    const [request] = calls('GET /v4/users/me');
    expect(request!.headers.get('Authorization')).toBe('JWT tok');
    expect(request!.headers.get('Created-At')).toBe('2026-11-21T12:00:00.000Z');
  });

  it('fills path parameters and the query', async () => {
    const { requests } = mockFetch({ 'GET /v4/emsAgencies/riverside': { body: riverside } });
    await client().api.call('team', { params: { id: 'riverside' }, query: { fields: 'dynamicForms' } });
    expect(requests[0]!.url.search).toBe('?fields=dynamicForms');
  });

  it('sends no Authorization header without a token, and the body as JSON', async () => {
    const { requests } = mockFetch({
      'POST /v4/auth/signin': {
        body: { authorizationToken: { token: 't', expirationDate: '2026-11-21T20:00:00.000Z' } },
      },
    });
    await client(null).api.call('signIn', {
      body: { username: 'medic1', password: 'pw', twiageClient: 'ems', platform: 'web' },
    });
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.body).toEqual({ username: 'medic1', password: 'pw', twiageClient: 'ems', platform: 'web' });
  });

  it('turns a failed fetch into noResponse', async () => {
    mockFetch({ 'GET /v4/users/me': 'network-error' });
    await expect(client().api.call('me')).rejects.toMatchObject({ kind: 'noResponse' });
  });

  it("keeps the server's message and status", async () => {
    mockFetch({ 'POST /v4/users/password': { status: 400, body: { message: 'The new passwords do not match.' } } });
    const error = await client()
      .api.call('changePassword', { body: { currentPassword: 'a', newPassword: 'b', verifyPassword: 'c' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 400, serverMessage: 'The new passwords do not match.' });
  });

  it('reports a 401 on an authenticated route, not on sign-in', async () => {
    mockFetch({
      'GET /v4/users/me': { status: 401, body: { message: 'Authentication required.' } },
      'POST /v4/auth/signin': { status: 401, body: { message: 'The username or password is incorrect.' } },
    });
    const { api, onUnauthorized } = client();
    await expect(api.call('me')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(
      api.call('signIn', { body: { username: 'medic1', password: 'x', twiageClient: 'ems', platform: 'web' } }),
    ).rejects.toMatchObject({ serverMessage: 'The username or password is incorrect.' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('rejects an answer that does not match the schema', async () => {
    mockFetch({ 'GET /v4/users/me': { body: { id: 1 } } });
    await expect(client().api.call('me')).rejects.toMatchObject({ kind: 'invalidResponse' });
  });
});
