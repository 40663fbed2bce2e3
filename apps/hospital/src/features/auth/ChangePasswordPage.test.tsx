import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { messages, type User } from '@inbound/contract';
import { App } from '../../App';
import { clearSession, setSession } from '../../lib/session';

vi.mock('../../lib/realtime/realtime', () => ({
  useChannel: () => undefined,
  // The team alert bar (features/activation) listens on the user's channel once signed in.
  useChannelMessages: () => undefined,
  useConnectionState: () => 'open',
}));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const admin: User = {
  id: 'u-new',
  _id: 'u-new',
  username: 'newadmin',
  email: null,
  displayName: 'Robin Park',
  features: [],
  emsAgencyMemberships: [],
  emsAgenciesAdministered: [],
  hospitalMemberships: [],
  roles: ['orgAdmin'],
  mustChangePassword: true,
};

afterEach(() => {
  cleanup();
  clearSession();
  vi.restoreAllMocks();
});

describe('first sign-in with a one-time password', () => {
  it('asks for a password of their own before anything else, then opens the console', async () => {
    let mustChange = true;
    const posted: unknown[] = [];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = String(input);
      if (url.endsWith('/v4/users/me')) return Promise.resolve(json(200, { ...admin, mustChangePassword: mustChange }));
      if (url.endsWith('/v4/users/password')) {
        const body = JSON.parse(String(init?.body)) as { newPassword: string };
        posted.push(body);
        if (body.newPassword === 'short')
          return Promise.resolve(json(400, { message: 'The new password is too short.' }));
        mustChange = false;
        return Promise.resolve(json(200, { message: 'Your password has been changed.' }));
      }
      if (url.includes('/v4/admin/membership-options'))
        return Promise.resolve(json(200, { agencies: [], hospitals: [] }));
      if (url.includes('/v4/admin/users')) return Promise.resolve(json(200, { users: [], truncated: false }));
      return Promise.resolve(json(404, { message: `unexpected ${url}` }));
    });
    setSession({ token: 't', expirationDate: new Date(Date.now() + 3_600_000).toISOString() });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/']}>
          <App />
        </MemoryRouter>
      </QueryClientProvider>,
    );

    expect(await screen.findByRole('heading', { name: 'Choose your password' })).toBeTruthy();
    // Only /users/me was asked: nothing else of the console loads yet.
    expect(fetch.mock.calls.map(([url]) => String(url)).every((url) => url.endsWith('/v4/users/me'))).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Save password and continue' }));
    expect(screen.getByText(messages.fillNewPassword)).toBeTruthy();
    expect(posted).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('One-time password'), 'abcd-efgh-jkmn-pqrs-tuvw');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('New password again'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save password and continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The new password is too short.');

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('New password again'));
    await userEvent.type(screen.getByLabelText('New password'), 'harbour-lights-77');
    await userEvent.type(screen.getByLabelText('New password again'), 'harbour-lights-77');
    await userEvent.click(screen.getByRole('button', { name: 'Save password and continue' }));

    // An organisation admin without an ED of their own lands in the administration.
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Users' })).toBeTruthy());
    expect(posted.at(-1)).toEqual({
      currentPassword: 'abcd-efgh-jkmn-pqrs-tuvw',
      newPassword: 'harbour-lights-77',
      verifyPassword: 'harbour-lights-77',
    });
  });
});
