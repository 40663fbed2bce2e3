import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { hilltop, lakeside, medic1, riverside } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

const token = { token: 'jwt-token', expirationDate: new Date(Date.now() + 3_600_000).toISOString() };

function backend(signIn: Parameters<typeof mockFetch>[0][string] = { body: { authorizationToken: token } }) {
  return mockFetch({
    'POST /v4/auth/signin': signIn,
    'GET /v4/users/me': { body: medic1 },
    'GET /v4/emsAgencies/riverside': { body: riverside },
    'GET /v4/emsAgencies/lakeside': { body: lakeside },
    'GET /v4/emsAgencies/hilltop': { body: hilltop },
  });
}

describe('Login', () => {
  it('asks for both fields, and each message clears on typing', async () => {
    const { calls } = backend();
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText(messages.fillUsername)).toBeInTheDocument();
    expect(screen.getByText(messages.fillPassword)).toBeInTheDocument();
    expect(screen.getByLabelText('Username or email')).toHaveAccessibleDescription(messages.fillUsername);
    expect(calls('POST /v4/auth/signin')).toHaveLength(0);

    await user.type(screen.getByLabelText('Username or email'), 'm');
    expect(screen.queryByText(messages.fillUsername)).not.toBeInTheDocument();
    expect(screen.getByText(messages.fillPassword)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'p');
    expect(screen.queryByText(messages.fillPassword)).not.toBeInTheDocument();
  });

  it("shows the server's message as-is when the password is wrong", async () => {
    backend({ status: 401, body: { message: 'The username or password is incorrect.' } });
    const { user } = renderApp('/');
    await user.type(screen.getByLabelText('Username or email'), 'medic1');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The username or password is incorrect.');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows the no-internet message when the server cannot be reached', async () => {
    backend('network-error');
    const { user } = renderApp('/');
    await user.type(screen.getByLabelText('Username or email'), 'medic1');
    await user.type(screen.getByLabelText('Password'), 'demo-medic1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByRole('alert')).textContent).toBe(messages.noResponse);
  });

  it("signs in, loads the user's teams and goes to team selection", async () => {
    const { calls } = backend(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { body: { authorizationToken: token } };
    });
    const { user, router } = renderApp('/');
    await user.type(screen.getByLabelText('Username or email'), ' medic1 ');
    await user.type(screen.getByLabelText('Password'), 'demo-medic1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('button', { name: messages.loggingIn })).toBeDisabled();

    expect(await screen.findByRole('heading', { name: messages.chooseTeam })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/team-selection');
    expect(calls('POST /v4/auth/signin')[0]!.body).toEqual({
      username: 'medic1',
      password: 'demo-medic1',
      twiageClient: 'ems',
      platform: 'web',
    });
    expect(calls('GET /v4/users/me')[0]!.headers.get('Authorization')).toBe('JWT jwt-token');
    expect(calls('GET /v4/emsAgencies/hilltop')[0]!.url.search).toBe('?fields=dynamicForms');
    expect(useSession.getState().teams.map((team) => team.name)).toEqual([
      'Lakeside Fire Rescue',
      'Riverside EMS',
      'Hilltop Volunteer Ambulance',
    ]);
  });

  it('offers Reset Password and the support contacts, and no Feedback link', () => {
    backend();
    renderApp('/');
    expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/v4/auth/forgot-password');
    expect(screen.getByRole('link', { name: 'support@inbound.example' })).toHaveAttribute(
      'href',
      'mailto:support@inbound.example',
    );
    expect(screen.getByRole('link', { name: '+1 (800) 555-0142' })).toHaveAttribute('href', 'tel:+18005550142');
    expect(screen.queryByRole('button', { name: 'Feedback' })).not.toBeInTheDocument();
    expect(screen.getByText('v1.0.234')).toBeInTheDocument();
  });

  it('goes back to login when signed out and the page is protected', async () => {
    backend();
    const { router } = renderApp('/settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
