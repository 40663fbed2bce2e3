import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { BroadcastMessage, HospitalStatus } from '@inbound/contract';
import { realtime } from '../../lib/realtime';
import { FakeWebSocket } from '@inbound/client/testing';
import { mockFetch } from '../../test/fetchMock';
import { caseTeam, signedInSession } from '../../test/fixtures';
import { gatewaySocket } from '../../test/gatewaySocket';
import { renderApp } from '../../test/renderApp';

// Start, live: hospital statuses (critical red, urgent amber) on `hospital-status:{id}` and broadcasts
// on `broadcast:{agencyId}`, both from a socket the test drives as the gateway.

const status = (id: string, text: string, priority: HospitalStatus['priority']): HospitalStatus => ({
  _id: id,
  status: text,
  priority,
  setAt: new Date().toISOString(),
});

const broadcast: BroadcastMessage = {
  _id: 'b-live',
  timestamp: new Date().toISOString(),
  content: 'Mercy on diversion',
  urgent: true,
  type: null,
  caseNumber: null,
  senderOrganizationName: 'Mercy General Hospital',
  emsAgencies: ['riverside'],
};

function session() {
  return {
    ...signedInSession(),
    teams: [caseTeam],
    selectedTeam: caseTeam,
    messageCenterLastOpened: new Date().toISOString(),
  };
}

/** The app's socket, once it has opened one (it connects after the session loads), opened by the "gateway". */
const gateway = () => gatewaySocket();

beforeEach(() => {
  realtime.close();
  FakeWebSocket.instances = [];
});
afterEach(() => {
  realtime.close();
  vi.unstubAllGlobals();
});

describe('Start, live', () => {
  it("shows the team's hospitals with active statuses and follows their changes", async () => {
    const api = mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/hospitals/rrmc/statuses': {
        body: { hospitalId: 'rrmc', activeStatuses: [status('s1', 'CT down', 'critical')] },
      },
      'GET /v4/hospitals/stmary/statuses': { body: { hospitalId: 'stmary', activeStatuses: [] } },
      'GET /v4/hospitals/county/statuses': { body: { hospitalId: 'county', activeStatuses: [] } },
    });
    renderApp('/start', session());
    const list = await screen.findByRole('region', { name: 'Hospital status' });
    expect(within(list).getByText('CT down')).toHaveClass('status-badge--critical');
    expect(within(list).queryByText("St. Mary's Hospital")).not.toBeInTheDocument();

    const socket = await gateway();
    expect(socket.subscribedTo('hospital-status:stmary')).toBe(true);
    act(() =>
      socket.message('hospital-status:stmary', 1, 'hospital.status', {
        hospitalId: 'stmary',
        activeStatuses: [status('s2', 'ED Saturated', 'urgent')],
      }),
    );
    expect(await within(list).findByText('ED Saturated')).toHaveClass('status-badge--urgent');
    expect(within(list).getByText("St. Mary's Hospital")).toBeInTheDocument();

    act(() => socket.message('hospital-status:rrmc', 1, 'hospital.status', { hospitalId: 'rrmc', activeStatuses: [] }));
    await waitFor(() => expect(within(list).queryByText('CT down')).not.toBeInTheDocument());
    // Subscribed again (the socket is up): the lists were asked for once each.
    act(() => socket.frame({ type: 'subscribed', channel: 'hospital-status:county', seq: 0 }));
    await waitFor(() => expect(api.calls('GET /v4/hospitals/county/statuses')).toHaveLength(1));
  });

  it('a broadcast arrives live and raises the envelope count, without asking the server again', async () => {
    const api = mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
    renderApp('/start', session());
    expect(await screen.findByRole('button', { name: 'Message Center' })).toBeInTheDocument();
    const socket = await gateway();
    // The Message Center's code follows Start's first paint (issue 16): its subscription may come after the socket.
    await waitFor(() => expect(socket.subscribedTo('broadcast:riverside')).toBe(true));
    const sentNow = { ...broadcast, timestamp: new Date(Date.now() + 1_000).toISOString() };
    act(() => socket.message('broadcast:riverside', 1, 'broadcast.message', sentNow));
    const envelope = await screen.findByRole('button', { name: 'Message Center, 1 unread' });
    const requestsBefore = api.calls('GET /notification/broadcast/me').length;
    act(() => envelope.click());
    const center = await screen.findByRole('dialog', { name: 'Message Center' });
    expect(within(center).getByText('Mercy on diversion')).toBeInTheDocument();
    expect(api.calls('GET /notification/broadcast/me').length).toBe(requestsBefore);
  });
});
