import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { mockFetch } from '../test/fetchMock';
import { authToken, localCase, signedInSession } from '../test/fixtures';
import { renderApp } from '../test/renderApp';
import { useSession } from '../lib/session';

describe('the guard in the running app', () => {
  it('lets a signed-out crew open /protocol, without a Feedback link', async () => {
    mockFetch({});
    const { router } = renderApp('/protocol');
    expect(await screen.findByRole('heading', { name: 'Protocols' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/protocol');
    expect(screen.queryByRole('button', { name: 'Feedback' })).not.toBeInTheDocument();
  });

  it('sends an active case to /case from anywhere', async () => {
    mockFetch({});
    const { router } = renderApp('/settings', {
      ...signedInSession(),
      caseActive: true,
      case: localCase({ id: 'c1' }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/case'));
  });

  it('sends a signed-in crew from / to /start, and /case without a case to /start', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
    const { router } = renderApp('/', signedInSession());
    await waitFor(() => expect(router.state.location.pathname).toBe('/start'));
    await act(() => router.navigate('/case'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/start'));
  });

  it('re-validates the token when the window regains focus', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } }, 'POST /v4/auth/signout': { status: 204 } });
    const { router } = renderApp('/start', signedInSession());
    await screen.findByRole('button', { name: 'START CASE' });
    act(() => {
      useSession.setState({ jwt: authToken(-1) });
    });
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(useSession.getState().jwt).toBeNull();
  });

  it('shows the version label on every screen', async () => {
    mockFetch({});
    renderApp('/settings', signedInSession());
    expect(await screen.findByText('v1.0.234')).toBeInTheDocument();
  });
});
