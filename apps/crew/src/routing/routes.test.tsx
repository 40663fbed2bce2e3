import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { mockFetch } from '../test/fetchMock';
import { signedInSession } from '../test/fixtures';
import { renderApp } from '../test/renderApp';
import { preloadStartPage } from './routes';

// Start imports its live-status module when it mounts; loaded here first, so the file never ends with
// that import still in flight (a teardown error logged, never a failure).
beforeAll(() => import('../features/hospitalStatus/liveStatuses'));
afterEach(() => cleanup());

describe('a screen whose code was preloaded', () => {
  it('is drawn in the first render, with no loading spinner before it (Start at app start)', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
    await preloadStartPage();
    // render() commits synchronously: a route still waiting on its code would show the spinner here.
    renderApp('/start', signedInSession());
    expect(screen.queryByText('Loading')).toBeNull();
    expect(screen.getByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(screen.getByText('Jordan Reyes')).toBeInTheDocument();
  });
});
