import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { mockFetch } from '../../test/fetchMock';
import { signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

describe('Feedback', () => {
  it('posts the text with client ems-web and the app version, and shows the answer', async () => {
    const { calls } = mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'POST /v4/feedback': { status: 201, body: { id: 'f1', message: 'Thank you for your feedback.' } },
    });
    const { user } = renderApp('/start', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Feedback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Your feedback'), 'Bigger buttons please');
    await user.click(send);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Thank you for your feedback.');
    expect(calls('POST /v4/feedback')[0]!.body).toEqual({
      message: 'Bigger buttons please',
      clientInfo: { client: 'ems-web', clientVersion: '1.0.234' },
    });
  });

  it('shows the mapped error when it fails', async () => {
    mockFetch({ 'POST /v4/feedback': { status: 503 } });
    const { user } = renderApp('/settings', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Feedback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
    await user.type(within(dialog).getByLabelText('Your feedback'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The Inbound servers are up, but overloaded with requests. Try again later.',
    );
  });
});
