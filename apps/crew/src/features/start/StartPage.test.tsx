import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { messages, transferMessages, type BroadcastMessage, type CaseTransfer } from '@inbound/contract';
import { resetTransferForTests } from '../transfer/transferController';
import { mockFetch } from '../../test/fetchMock';
import { authToken, medic1, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { useSession } from '../../lib/session';

const broadcast = (id: string, minutesAgo: number, extra: Partial<BroadcastMessage> = {}): BroadcastMessage => ({
  _id: id,
  timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  content: `Message ${id}`,
  urgent: false,
  type: null,
  caseNumber: null,
  senderOrganizationName: 'Riverside Regional Medical Center',
  emsAgencies: ['riverside'],
  ...extra,
});

function backend(messagesList: BroadcastMessage[] = []) {
  return mockFetch({
    'GET /notification/broadcast/me': { body: { data: messagesList } },
    'POST /v4/auth/signout': { status: 204 },
  });
}

describe('Start', () => {
  it('shows the welcome, the rows, the tagline and START CASE', async () => {
    backend();
    renderApp('/start', signedInSession());
    expect(await screen.findByText('Jordan Reyes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shift Ends Choose Time' })).toHaveAttribute('href', '/shift');
    expect(screen.getByRole('link', { name: 'Team Riverside EMS' })).toHaveAttribute('href', '/team-selection');
    expect(screen.getByRole('link', { name: 'Truck Medic 1' })).toHaveAttribute('href', '/truck-selection');
    expect(screen.getByRole('button', { name: 'Case Transfer Tap to Receive Case' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Protocols Ask Question' })).toHaveAttribute('href', '/protocol');
    expect(screen.getByText(messages.tagline)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('button', { name: 'Feedback' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@inbound.example' })).toBeInTheDocument();
  });

  it('hides Protocols without aiEnhancedProtocols, and shows the shift end as hh:mm a', async () => {
    backend();
    const at = new Date();
    at.setHours(at.getHours() + 2, 30, 0, 0);
    const hours = at.getHours() % 12 === 0 ? 12 : at.getHours() % 12;
    renderApp('/start', {
      ...signedInSession(),
      user: { ...medic1, features: [] },
      autoLogoutTime: '00:00:00',
      autoLogoutAt: at.toISOString(),
    });
    const expected = `${String(hours).padStart(2, '0')}:30 ${at.getHours() < 12 ? 'AM' : 'PM'}`;
    expect(await screen.findByRole('link', { name: new RegExp(`Shift Ends.*${expected}`) })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Protocols/ })).not.toBeInTheDocument();
  });

  it('asks before logging out; Cancel keeps the crew signed in', async () => {
    backend();
    const { user, router } = renderApp('/start', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(messages.logoutConfirm);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useSession.getState().jwt).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('START CASE with an expired token logs out instead', async () => {
    backend();
    const { user, router } = renderApp('/start', signedInSession());
    useSession.setState({ jwt: authToken(-1000) });
    await user.click(await screen.findByRole('button', { name: 'START CASE' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('Message Center', () => {
  it('counts messages newer than the last opening, lists them newest first, then counts none', async () => {
    backend([
      broadcast('old', 120),
      broadcast('new', 5, { urgent: true, content: 'Diversion: ED closed to ambulances' }),
      broadcast('dispatch', 30, { type: 'emsDispatch', caseNumber: 'C-1042', content: 'Dispatch: chest pain' }),
    ]);
    const { user } = renderApp('/start', {
      ...signedInSession(),
      messageCenterLastOpened: new Date(Date.now() - 60 * 60_000).toISOString(),
    });
    const envelope = await screen.findByRole('button', { name: 'Message Center, 2 unread' });
    await user.click(envelope);

    const dialog = screen.getByRole('dialog', { name: 'Message Center' });
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.message__content')?.textContent)).toEqual([
      'Diversion: ED closed to ambulances',
      'Dispatch: chest pain',
      'Message old',
    ]);
    expect(items[0]).toHaveClass('message--urgent');
    expect(items[0]).toHaveTextContent('Riverside Regional Medical Center');

    await user.click(within(dialog).getByRole('button', { name: messages.loadDispatchCase }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent(messages.confirmStartCase);
    expect(within(confirm).getByRole('button', { name: 'Start' })).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: 'Message Center' })).toBeInTheDocument();
  });

  it('says when it is quiet', async () => {
    backend([]);
    const { user } = renderApp('/start', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Message Center' }));
    expect(await screen.findByText(messages.messageCenterEmpty)).toBeInTheDocument();
  });
});

describe('Case Transfer on Start', () => {
  afterEach(() => resetTransferForTests());

  it('a tap before the after-paint code is in opens Receive Case; the typed code and the request outlast the rest of Start arriving', async () => {
    const now = new Date().toISOString();
    const requested: CaseTransfer = {
      _id: 'tr-1',
      caseId: 'case-1',
      caseTransferCode: '482913',
      status: 'open',
      pubnubChannel: 'transfer:tr-1',
      request: { status: 'open', requestedBy: 'u-medic1', emsAgencyId: 'riverside', truckId: 't-medic1' },
      createdBy: 'u-medic2',
      messageForSender: null,
      messageForReceiver: null,
      emsAgency: 'riverside',
      createdAt: now,
      updatedAt: now,
      expiresAt: now,
    };
    // The broadcasts arrive after the dialog is open: Start re-renders with the unread count under it.
    let releaseBroadcasts = () => {};
    const broadcastsHeld = new Promise<void>((resolve) => {
      releaseBroadcasts = resolve;
    });
    const api = mockFetch({
      'GET /notification/broadcast/me': async () => {
        await broadcastsHeld;
        return { body: { data: [broadcast('new', 1)] } };
      },
      'HEAD /icons/icon-192.png': { status: 200 },
      'POST /v4/case-transfers/482913/request': { body: requested },
      'GET /v4/case-transfers/tr-1': { body: requested },
    });
    const { user } = renderApp('/start', signedInSession());
    // At once, as a crew does on a slow phone: Start's own code is in, the live part may not be.
    await user.click(await screen.findByRole('button', { name: 'Case Transfer Tap to Receive Case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receive Case' });
    await user.type(within(dialog).getByLabelText('Case transfer code'), '482913');
    releaseBroadcasts();
    expect(await screen.findByRole('button', { name: 'Message Center, 1 unread' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Case transfer code')).toHaveValue('482913');

    await user.click(within(dialog).getByRole('button', { name: 'Send Request' }));
    expect(await within(dialog).findByText(transferMessages.waitingForSender)).toBeInTheDocument();
    expect(api.calls('POST /v4/case-transfers/482913/request')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Receive Case' })).toBe(dialog);
  });
});
