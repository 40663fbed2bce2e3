import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { lakeside, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

describe('Settings', () => {
  it('lists Change Password, Auto-logout, Case Feedback (a hospital of the team supports emsFeedback), Close and Logout', async () => {
    mockFetch({});
    renderApp('/settings', signedInSession());
    expect(await screen.findByRole('link', { name: /Change Password/ })).toHaveAttribute('href', '/changePassword');
    expect(screen.getByRole('link', { name: /Auto-logout/ })).toHaveAttribute('href', '/shift');
    expect(screen.getByRole('link', { name: /Case Feedback/ })).toHaveAttribute('href', '/caseFeedbackSettings');
    expect(screen.getByRole('link', { name: 'Close' })).toHaveAttribute('href', '/start');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('hides Case Feedback when no hospital of the team supports it', async () => {
    mockFetch({});
    renderApp('/settings', { ...signedInSession(), selectedTeam: lakeside });
    await screen.findByRole('link', { name: /Change Password/ });
    expect(screen.queryByRole('link', { name: /Case Feedback/ })).not.toBeInTheDocument();
  });

  it('logs out after confirmation: state cleared, signout called, back to login', async () => {
    const { calls } = mockFetch({ 'POST /v4/auth/signout': { status: 204 } });
    const session = signedInSession();
    const { user, router } = renderApp('/settings', session);
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Logout' });
    expect(within(dialog).getByText(messages.logoutConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(useSession.getState()).toMatchObject({
      jwt: null,
      user: null,
      selectedTeam: null,
      selectedTruck: null,
      teams: [],
    });
    await expect.poll(() => calls('POST /v4/auth/signout').length).toBe(1);
    expect(calls('POST /v4/auth/signout')[0]!.headers.get('Authorization')).toBe(`JWT ${session.jwt.token}`);
  });

  it('opens Security with Back and Change Password', async () => {
    mockFetch({});
    renderApp('/security', signedInSession());
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: /Change Password/ })).toHaveAttribute('href', '/changePassword');
  });
});
