import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { messages, serverMessages } from '@inbound/contract';
import { SignInPage } from './SignInPage';
import { getSession, clearSession } from '../../lib/session';

function renderPage() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SignInPage />
    </QueryClientProvider>,
  );
}

function mockFetch(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => {
  cleanup();
  clearSession();
});

describe('SignInPage', () => {
  it('asks for both fields before calling the server, and clears a field error on typing', async () => {
    const fetch = mockFetch(500, {});
    const user = userEvent.setup();
    renderPage();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText(messages.fillUsername)).toBeTruthy();
    expect(screen.getByText(messages.fillPassword)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Username or e-mail'), 'ed1');
    expect(screen.queryByText(messages.fillUsername)).toBeNull();
    expect(screen.getByText(messages.fillPassword)).toBeTruthy();
  });

  it("shows the server's message as-is on a wrong password", async () => {
    mockFetch(401, { message: serverMessages.invalidCredentials });
    const user = userEvent.setup();
    renderPage();

    await user.type(screen.getByLabelText('Username or e-mail'), 'ed1');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByRole('alert')).textContent).toBe(serverMessages.invalidCredentials);
    expect(getSession()).toBeNull();
  });

  it('signs in as a hospital client and keeps the token for this tab', async () => {
    const fetch = mockFetch(200, { authorizationToken: { token: 'jwt', expirationDate: '2099-01-01T00:00:00.000Z' } });
    const user = userEvent.setup();
    renderPage();

    await user.type(screen.getByLabelText('Username or e-mail'), ' ed1 ');
    await user.type(screen.getByLabelText('Password'), 'demo-ed1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await vi.waitFor(() => expect(getSession()?.token).toBe('jwt'));
    const body: unknown = JSON.parse(String(fetch.mock.calls[0]![1]?.body));
    expect(body).toEqual({ username: 'ed1', password: 'demo-ed1', twiageClient: 'hospital', platform: 'web' });
  });
});
