import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { mockFetch } from '../../test/fetchMock';
import { signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

describe('Case feedback settings', () => {
  it('enables Save only when Do Not Disturb differs from the saved value, and saves it per user', async () => {
    mockFetch({});
    const { user } = renderApp('/caseFeedbackSettings', {
      ...signedInSession(),
      doNotDisturb: { 'someone-else': true },
    });
    const toggle = await screen.findByRole('switch', { name: 'Do Not Disturb' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(toggle).not.toBeChecked();
    expect(save).toBeDisabled();

    await user.click(toggle);
    expect(save).toBeEnabled();
    await user.click(toggle);
    expect(save).toBeDisabled();

    await user.click(toggle);
    await user.click(save);
    expect(useSession.getState().doNotDisturb).toEqual({ 'someone-else': true, 'u-medic1': true });
    expect(save).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
  });
});
