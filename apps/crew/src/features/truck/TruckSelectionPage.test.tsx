import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { mockFetch } from '../../test/fetchMock';
import { authToken, medic1, riverside, trucks } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';
import { TruckLoadState, truckLoadState } from './truckLoadState';

const withTeam = { jwt: authToken(), user: medic1, teams: [riverside], selectedTeam: riverside };

describe('Truck selection', () => {
  it('lists the team trucks with ALS/BLS and goes to start once one is chosen', async () => {
    const { calls } = mockFetch({ 'GET /v4/emsAgencies/riverside/trucks': { body: trucks } });
    const { user, router } = renderApp('/truck-selection', withTeam);
    expect(await screen.findByRole('heading', { name: 'Choose your truck' })).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();

    const radios = await screen.findAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Ambulance 5BLS',
      'Medic 1ALS',
      'Medic 2ALS',
    ]);
    expect(screen.getByRole('radio', { name: 'Ambulance 5' })).toHaveAccessibleDescription('BLS');
    await user.click(screen.getByRole('radio', { name: 'Medic 1' }));
    expect(next).toBeEnabled();
    await user.click(next);
    expect(await screen.findByText('Accelerate Emergency Care')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
    expect(useSession.getState().selectedTruck?.name).toBe('Medic 1');
    expect(calls('GET /v4/emsAgencies/riverside/trucks')[0]!.headers.get('Authorization')).toBe(
      `JWT ${withTeam.jwt.token}`,
    );
  });

  it('shows a spinner while loading, then an error with Retry that loads again', async () => {
    let attempts = 0;
    mockFetch({
      'GET /v4/emsAgencies/riverside/trucks': async () => {
        attempts += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return attempts === 1 ? { status: 502 } : { body: trucks };
      },
    });
    const { user } = renderApp('/truck-selection', withTeam);
    expect(await screen.findByText('Loading trucks')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Inbound servers are down, or being upgraded.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('radio', { name: 'Medic 2' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('truckLoadState (spec §4)', () => {
  it.each([
    [{ status: 'pending', fetchStatus: 'idle' }, TruckLoadState.Initial],
    [{ status: 'pending', fetchStatus: 'fetching' }, TruckLoadState.Loading],
    [{ status: 'error', fetchStatus: 'fetching' }, TruckLoadState.Loading],
    [{ status: 'success', fetchStatus: 'fetching' }, TruckLoadState.LoadingSucceeded],
    [{ status: 'success', fetchStatus: 'idle' }, TruckLoadState.LoadingSucceeded],
    [{ status: 'error', fetchStatus: 'idle' }, TruckLoadState.LoadingFailed],
  ] as const)('%j → %s', (query, expected) => {
    expect(truckLoadState(query)).toBe(expected);
  });
});
