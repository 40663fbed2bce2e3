import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { authToken, medic1, riverside, signedInSession } from '../../test/fixtures';
import { useSession } from '../../lib/session';
import { renderApp } from '../../test/renderApp';

describe('Change password', () => {
  it('sets every empty-field message word for word, still makes the call, and shows its answer', async () => {
    const { calls } = mockFetch({
      'POST /v4/users/password': {
        status: 400,
        body: { message: 'currentPassword: The current password is incorrect.' },
      },
    });
    const { user } = renderApp('/changePassword', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));

    expect(screen.getByText('Please fill in Current  Password', { normalizer: (text) => text })).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(messages.fillNewPassword)).toBeInTheDocument();
    expect(screen.getByText(messages.fillNewPasswordAgain)).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('currentPassword: The current password is incorrect.');
    expect(calls('POST /v4/users/password')[0]!.body).toEqual({
      currentPassword: '',
      newPassword: '',
      verifyPassword: '',
    });
  });

  it('clears a field error when that field is typed in', async () => {
    mockFetch({ 'POST /v4/users/password': { status: 400, body: { message: 'x' } } });
    const { user } = renderApp('/changePassword', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));
    await user.type(screen.getByLabelText('New Password'), 'n');
    expect(screen.queryByText(messages.fillNewPassword)).not.toBeInTheDocument();
    expect(screen.getByText(messages.fillNewPasswordAgain)).toBeInTheDocument();
    expect(screen.getByText('Please fill in Current  Password', { normalizer: (text) => text })).toBeInTheDocument();
  });

  it("changes the password and shows the server's message", async () => {
    const { calls } = mockFetch({
      'POST /v4/users/password': { body: { message: 'Your password has been changed.' } },
    });
    const { user } = renderApp('/changePassword', signedInSession());
    await user.type(await screen.findByLabelText('Current Password'), 'demo-medic1');
    await user.type(screen.getByLabelText('New Password'), 'siren-gurney-42');
    await user.type(screen.getByLabelText('Confirm New Password'), 'siren-gurney-42');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    expect(calls('POST /v4/users/password')[0]!.body).toEqual({
      currentPassword: 'demo-medic1',
      newPassword: 'siren-gurney-42',
      verifyPassword: 'siren-gurney-42',
    });
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });

  it('with a one-time password from an administrator: only this page, then on to team selection', async () => {
    const { calls } = mockFetch({
      'POST /v4/users/password': { body: { message: 'Your password has been changed.' } },
      'GET /v4/users/me': {
        body: {
          ...medic1,
          emsAgencyMemberships: [{ _id: 'riverside' }],
          emsAgenciesAdministered: [],
          mustChangePassword: false,
        },
      },
      'GET /v4/emsAgencies/riverside': { body: riverside },
    });
    const { user, router } = renderApp('/start', {
      jwt: authToken(),
      user: { ...medic1, mustChangePassword: true },
      teams: [],
      selectedTeam: null,
      selectedTruck: null,
    });
    await screen.findByLabelText('Current Password');
    expect(router.state.location.pathname).toBe('/changePassword');
    await user.type(screen.getByLabelText('Current Password'), 'abcd-efgh-jkmn-pqrs-tuvw');
    await user.type(screen.getByLabelText('New Password'), 'siren-gurney-42');
    await user.type(screen.getByLabelText('Confirm New Password'), 'siren-gurney-42');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/team-selection'));
    expect(useSession.getState().user?.mustChangePassword).toBe(false);
    expect(useSession.getState().teams.map((team) => team.id)).toEqual(['riverside']);
    expect(calls('GET /v4/emsAgencies/riverside')).toHaveLength(1);
  });

  it('goes back to settings', async () => {
    mockFetch({});
    renderApp('/changePassword', signedInSession());
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/settings');
  });
});
