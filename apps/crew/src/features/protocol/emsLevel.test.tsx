// Spec §2 "EMS Level dialog" (radio list, required, 'Save & Continue'), shown when the assistant is opened
// and a level is needed and the team has levels; the choice is kept per user id (§3, §9).
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { useSession } from '../../lib/session';
import { mockFetch } from '../../test/fetchMock';
import { riverside, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { currentEmsLevel, needsEmsLevel } from './emsLevel';

const levels = [{ name: 'EMR' }, { name: 'EMT' }, { name: 'AEMT' }, { name: 'Paramedic' }];
const teamWithLevels = { ...riverside, codeVital: { emtLevels: levels } };

describe('needsEmsLevel', () => {
  it('asks only when the team has levels and this user has none of them', () => {
    expect(needsEmsLevel({ team: teamWithLevels, userId: 'u1', stored: {} })).toBe(true);
    expect(needsEmsLevel({ team: teamWithLevels, userId: 'u1', stored: { u2: 'EMT' } })).toBe(true);
    expect(needsEmsLevel({ team: teamWithLevels, userId: 'u1', stored: { u1: 'EMT' } })).toBe(false);
    expect(needsEmsLevel({ team: riverside, userId: 'u1', stored: {} })).toBe(false);
    expect(needsEmsLevel({ team: null, userId: 'u1', stored: {} })).toBe(false);
  });

  it('a level this team does not offer is not a level for it', () => {
    const basic = { ...riverside, codeVital: { emtLevels: levels.slice(0, 2) } };
    expect(currentEmsLevel({ team: basic, userId: 'u1', stored: { u1: 'Paramedic' } })).toBeNull();
    expect(needsEmsLevel({ team: basic, userId: 'u1', stored: { u1: 'Paramedic' } })).toBe(true);
    expect(currentEmsLevel({ team: teamWithLevels, userId: 'u1', stored: { u1: 'Paramedic' } })).toBe('Paramedic');
  });
});

function backend() {
  mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
}

describe('EMS Level dialog (Start → Protocols)', () => {
  it("asks first: the team's levels as radios, Save & Continue only once one is chosen; kept per user", async () => {
    backend();
    const { user, router } = renderApp('/start', {
      ...signedInSession(),
      selectedTeam: teamWithLevels,
      emtLevel: { 'u-other': 'EMR' },
    });
    await user.click(await screen.findByRole('link', { name: 'Protocols Ask Question' }));
    const dialog = screen.getByRole('dialog', { name: 'EMS Level' });
    expect(router.state.location.pathname).toBe('/start');
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['EMR', 'EMT', 'AEMT', 'Paramedic']);
    const save = within(dialog).getByRole('button', { name: 'Save & Continue' });
    expect(save).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: 'Paramedic' }));
    expect(save).toBeEnabled();
    await user.click(save);

    expect(screen.queryByRole('dialog', { name: 'EMS Level' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/protocol');
    expect(useSession.getState().emtLevel).toEqual({ 'u-other': 'EMR', 'u-medic1': 'Paramedic' });
  });

  it('does not ask again once chosen, nor when the team has no levels', async () => {
    backend();
    const { user, router } = renderApp('/start', {
      ...signedInSession(),
      selectedTeam: teamWithLevels,
      emtLevel: { 'u-medic1': 'EMT' },
    });
    await user.click(await screen.findByRole('link', { name: 'Protocols Ask Question' }));
    expect(await screen.findByRole('heading', { name: 'Protocols' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/protocol');
    expect(screen.queryByRole('dialog', { name: 'EMS Level' })).not.toBeInTheDocument();
  });

  it('without a choice it cannot continue; Escape or a tap outside leaves it, nothing kept', async () => {
    backend();
    const { user, router } = renderApp('/start', { ...signedInSession(), selectedTeam: teamWithLevels });
    const protocols = await screen.findByRole('link', { name: 'Protocols Ask Question' });
    await user.click(protocols);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'EMS Level' })).not.toBeInTheDocument();

    await user.click(protocols);
    const backdrop = screen.getByRole('dialog', { name: 'EMS Level' }).parentElement!;
    fireEvent.click(backdrop);
    expect(screen.queryByRole('dialog', { name: 'EMS Level' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
    expect(useSession.getState().emtLevel).toEqual({});
  });
});
