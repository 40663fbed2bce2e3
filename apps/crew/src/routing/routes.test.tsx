import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { mockFetch } from '../test/fetchMock';
import { signedInSession } from '../test/fixtures';
import { renderApp } from '../test/renderApp';
import { preloadStartPage } from './routes';

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
