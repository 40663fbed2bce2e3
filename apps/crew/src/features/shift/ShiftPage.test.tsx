import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { AUTO_LOGOUT_CHECK_MS, messages } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

afterEach(() => {
  vi.useRealTimers();
});

describe('Shift / auto-logout page', () => {
  it('switches on with 8 hours from now, takes a time, rolls a past time to tomorrow, switches off clearing', async () => {
    mockFetch({});
    const { user } = renderApp('/shift', signedInSession());
    expect(await screen.findByRole('heading', { name: messages.autoLogoutTitle })).toBeInTheDocument();
    expect(screen.getByText(messages.autoLogoutHelp)).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: 'Auto Logout' });
    expect(toggle).not.toBeChecked();

    const before = Date.now();
    await user.click(toggle);
    const at = Date.parse(useSession.getState().autoLogoutAt!);
    expect(at).toBeGreaterThan(before + 8 * 3_600_000 - 60_000);
    expect(at).toBeLessThanOrEqual(before + 8 * 3_600_000);

    // The current minute is never in the future (whatever the time of day): it must roll to tomorrow.
    const now = new Date();
    const clock = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
    fireEvent.change(screen.getByLabelText('Shift ends at'), { target: { value: clock } });
    expect(useSession.getState().autoLogoutTime).toBe(`${clock}:00`);
    const rolled = new Date(useSession.getState().autoLogoutAt!);
    expect(rolled.getTime()).toBeGreaterThan(now.getTime());
    expect(screen.getByText(/^Tomorrow at/)).toBeInTheDocument();

    await user.click(toggle);
    expect(useSession.getState()).toMatchObject({ autoLogoutTime: null, autoLogoutAt: null });
    expect(screen.queryByLabelText('Shift ends at')).not.toBeInTheDocument();
  });

  it('Done goes back', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
    const { user, router } = renderApp('/start', signedInSession());
    await user.click(await screen.findByRole('link', { name: /Shift Ends/ }));
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    expect(router.state.location.pathname).toBe('/start');
  });
});

describe('auto-logout', () => {
  it('checks every 5 s; when the shift end is reached it logs out, clears the time and says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'Date'] });
    const { calls } = mockFetch({
      'POST /v4/auth/signout': { status: 204 },
      'GET /notification/broadcast/me': { body: { data: [] } },
    });
    const end = new Date(Date.now() + 7_000);
    const { router } = renderApp('/start', {
      ...signedInSession(),
      autoLogoutTime: '00:00:00',
      autoLogoutAt: end.toISOString(),
    });
    expect(await screen.findByRole('button', { name: 'START CASE' })).toBeInTheDocument();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(AUTO_LOGOUT_CHECK_MS);
    });
    expect(useSession.getState().jwt).not.toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(AUTO_LOGOUT_CHECK_MS);
    });
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(messages.autoLogoutReached)).toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ jwt: null, autoLogoutTime: null, autoLogoutAt: null });
    expect(router.state.location.pathname).toBe('/');
    await vi.waitFor(() => expect(calls('POST /v4/auth/signout')).toHaveLength(1));
  });

  it('fires at start when the shift already ended while the app was closed', async () => {
    mockFetch({ 'POST /v4/auth/signout': { status: 204 } });
    renderApp('/start', {
      ...signedInSession(),
      autoLogoutTime: '00:00:00',
      autoLogoutAt: new Date(Date.now() - 1).toISOString(),
    });
    expect(await screen.findByText(messages.autoLogoutReached)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});
