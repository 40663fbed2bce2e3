import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { authToken, hilltop, lakeside, medic1, riverside, trucks } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

const signedInWithoutTeam = { jwt: authToken(), user: medic1, teams: [hilltop, lakeside, riverside] };

describe('Team selection', () => {
  it('shows teams without hospitals but does not let them be chosen', async () => {
    mockFetch({});
    renderApp('/team-selection', signedInWithoutTeam);
    const hilltopRadio = await screen.findByRole('radio', { name: 'Hilltop Volunteer Ambulance' });
    expect(hilltopRadio).toBeDisabled();
    expect(hilltopRadio).toHaveAccessibleDescription('No hospitals');
    expect(screen.getByRole('radio', { name: 'Riverside EMS' })).toBeEnabled();
    expect(screen.getByRole('radio', { name: 'Lakeside Fire Rescue' })).toHaveAccessibleDescription('1 hospital');
  });

  it('keeps Next disabled until a team is chosen, and says so if pressed', async () => {
    mockFetch({ 'GET /v4/emsAgencies/riverside/trucks': { body: trucks } });
    const { user, router } = renderApp('/team-selection', signedInWithoutTeam);
    const next = await screen.findByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');

    await user.click(next);
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(messages.mustSelectTeam)).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Riverside EMS' }));
    expect(next).toHaveAttribute('aria-disabled', 'false');
    await user.click(next);
    expect(await screen.findByRole('heading', { name: messages.chooseTruck })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/truck-selection');
    expect(useSession.getState().selectedTeam?.id).toBe('riverside');
  });

  it('shows the back link only while the chosen team is unchanged', async () => {
    mockFetch({});
    const { user } = renderApp('/team-selection', {
      ...signedInWithoutTeam,
      selectedTeam: riverside,
      selectedTruck: trucks[0]!,
    });
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/start');
    expect(screen.getByRole('radio', { name: 'Riverside EMS' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Lakeside Fire Rescue' }));
    expect(screen.queryByRole('link', { name: 'Back' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Riverside EMS' }));
    expect(screen.getByRole('link', { name: 'Back' })).toBeInTheDocument();
  });

  it('has no back link before any team was chosen', async () => {
    mockFetch({});
    renderApp('/team-selection', signedInWithoutTeam);
    await screen.findByRole('radio', { name: 'Riverside EMS' });
    expect(screen.queryByRole('link', { name: 'Back' })).not.toBeInTheDocument();
  });

  it('clears the truck when the team changes', async () => {
    mockFetch({ 'GET /v4/emsAgencies/lakeside/trucks': { body: [] } });
    const { user } = renderApp('/team-selection', {
      ...signedInWithoutTeam,
      selectedTeam: riverside,
      selectedTruck: trucks[0]!,
    });
    await user.click(await screen.findByRole('radio', { name: 'Lakeside Fire Rescue' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(useSession.getState()).toMatchObject({ selectedTeam: lakeside, selectedTruck: null });
  });

  it('embeds the auto-logout settings below the list', async () => {
    mockFetch({});
    const { user } = renderApp('/team-selection', signedInWithoutTeam);
    const toggle = await screen.findByRole('switch', { name: 'Auto Logout' });
    expect(toggle).toHaveAccessibleDescription(messages.autoLogoutHelp);
    await user.click(toggle);
    expect(screen.getByLabelText('Shift ends at')).toBeInTheDocument();
    expect(useSession.getState().autoLogoutTime).toMatch(/^\d\d:\d\d:00$/);
  });
});
