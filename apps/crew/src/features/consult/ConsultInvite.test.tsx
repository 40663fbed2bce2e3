import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Consult, ConsultParticipant, Team } from '@inbound/contract';
import { FakeWebSocket } from '@inbound/client/testing';
import { caseOutbox } from '../../lib/caseOutbox';
import { realtime } from '../../lib/realtime';
import { mockFetch } from '../../test/fetchMock';
import { caseTeam, complaintSet, hospital, localCase, signedInSession } from '../../test/fixtures';
import { gatewaySocket } from '../../test/gatewaySocket';
import { renderApp } from '../../test/renderApp';
import { useConsultRoom } from './consultRoom';
import { endConsultView, useConsultView } from './consultState';

// The crew is told when the hospital is in a live consult of its case that the crew is not in: from the
// room read when the case's channel is (re)subscribed, then from `consult.updated` on that channel.

const RIVERSIDE = 'Riverside Regional Medical Center';
const INVITE = `${RIVERSIDE} is in a live consult on this case.`;
const consultTeam: Team = {
  ...caseTeam,
  hospitals: [hospital('rrmc', RIVERSIDE, ['liveConsult']), ...caseTeam.hospitals.slice(1)],
};

function participant(id: string, side: ConsultParticipant['side']): ConsultParticipant {
  return { id, userId: `u-${id}`, name: id, side, joinedAt: '2026-11-27T09:00:00.000Z', leftAt: null };
}

function consult(id: string, participants: ConsultParticipant[], state: Consult['state'] = 'live'): Consult {
  return {
    id,
    caseId: 'case-1',
    caseNumber: 'RV-7K2',
    hospitalId: 'rrmc',
    state,
    startedAt: '2026-11-27T09:00:00.000Z',
    endedAt: state === 'ended' ? '2026-11-27T09:05:00.000Z' : null,
    participants,
  };
}

beforeEach(async () => {
  await caseOutbox.clear();
  realtime.close();
  FakeWebSocket.instances = [];
  useConsultRoom.setState({ caseId: null, consult: null, dismissedId: null });
  endConsultView();
});

afterEach(async () => {
  await caseOutbox.stop();
  realtime.close();
  vi.unstubAllGlobals();
  endConsultView();
});

async function openCaseScreen(room: Consult | null) {
  const api = mockFetch({
    'GET /notification/broadcast/me': { body: { data: [] } },
    'GET /v4/complaintSets': { body: [complaintSet] },
    'GET /notification/twiage-cases/case-1/chat-messages': { body: { messages: [] } },
    'GET /v4/twiageCases/case-1': 'network-error',
    'GET /notification/twiage-cases/case-1/room': {
      body: { roomId: room?.id ?? null, consult: room, available: true },
    },
    // Joining in this test goes no further than the request (no camera in jsdom).
    'POST /v4/consults': { status: 409, body: { message: 'End current call to start live consult' } },
  });
  renderApp('/case', {
    ...signedInSession(),
    teams: [consultTeam],
    selectedTeam: consultTeam,
    complaintSet,
    case: localCase({ destinationHospital: { id: 'rrmc' } }),
    caseActive: true,
  });
  const socket = await gatewaySocket({ 'case:case-1': 4 });
  let seq = 4;
  const consultUpdated = (data: Consult) =>
    act(() =>
      socket.frame({
        type: 'message',
        channel: 'case:case-1',
        seq: (seq += 1),
        event: { type: 'consult.updated', data: { consult: data } },
      }),
    );
  return { api, consultUpdated };
}

describe('the live consult invitation', () => {
  it('tells the crew on opening the case that the hospital is in a consult, and hides it for "Not now"', async () => {
    const { api, consultUpdated } = await openCaseScreen(consult('k1', [participant('ed1', 'hospital')]));
    expect(await screen.findByTestId('consult-invite')).toHaveTextContent(INVITE);
    expect(api.calls('GET /notification/twiage-cases/case-1/room')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('consult-invite')).toBeNull();
    // The same consult changing (someone joins) does not bring it back; a new consult does.
    consultUpdated(consult('k1', [participant('ed1', 'hospital'), participant('ed2', 'hospital')]));
    expect(screen.queryByTestId('consult-invite')).toBeNull();
    consultUpdated(consult('k2', [participant('ed1', 'hospital')]));
    expect(await screen.findByTestId('consult-invite')).toHaveTextContent(INVITE);
  });

  it('appears when the hospital starts one, goes when it ends, and Join opens the room', async () => {
    const { consultUpdated } = await openCaseScreen(null);
    await waitFor(() => expect(useConsultRoom.getState().caseId).toBe('case-1'));
    expect(screen.queryByTestId('consult-invite')).toBeNull();

    consultUpdated(consult('k3', [participant('ed1', 'hospital')]));
    expect(await screen.findByTestId('consult-invite')).toHaveTextContent(INVITE);
    consultUpdated(consult('k3', [], 'ended'));
    await waitFor(() => expect(screen.queryByTestId('consult-invite')).toBeNull());

    // A room with only the crew's own (earlier) join in it is nothing to be told about.
    consultUpdated(consult('k4', [participant('crew', 'crew')]));
    expect(screen.queryByTestId('consult-invite')).toBeNull();

    consultUpdated(consult('k4', [participant('crew', 'crew'), participant('ed1', 'hospital')]));
    fireEvent.click(await screen.findByRole('button', { name: 'Join Live Consult' }));
    expect(useConsultView.getState()).toMatchObject({ view: 'open', caseId: 'case-1' });
    expect(screen.queryByTestId('consult-invite')).toBeNull();
  });
});
