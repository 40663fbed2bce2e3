import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { CaseEvent, CaseUpdated } from '@inbound/contract';
import { FakeWebSocket } from '@inbound/client/testing';
import { caseOutbox } from '../../lib/caseOutbox';
import { realtime } from '../../lib/realtime';
import { mockFetch } from '../../test/fetchMock';
import { caseTeam, complaintSet, localCase, signedInSession } from '../../test/fixtures';
import { gatewaySocket } from '../../test/gatewaySocket';
import { renderApp } from '../../test/renderApp';

// The case screen's one subscription to case:{id}: events are applied to the screen, no request follows.

const CASE_PATH = '/v4/twiageCases/case-1';

function caseUpdated(seq: number, event: CaseEvent): CaseUpdated {
  return {
    caseId: 'case-1',
    event: {
      id: `e-${seq}`,
      caseId: 'case-1',
      seq,
      createdAt: '2026-11-25T09:41:00.000Z',
      clientCreatedAt: null,
      actorUserId: 'u-ed1',
      ...event,
    },
  };
}

beforeEach(async () => {
  await caseOutbox.clear();
  realtime.close();
  FakeWebSocket.instances = [];
});

afterEach(async () => {
  await caseOutbox.stop();
  realtime.close();
  vi.unstubAllGlobals();
});

describe('the case channel', () => {
  it('is subscribed once, and shows an acknowledgement from its event without reading the case', async () => {
    const api = mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
      'GET /notification/twiage-cases/case-1/chat-messages': { body: { messages: [] } },
      // The first subscription reads what it may have missed; offline here, so nothing shows yet.
      [`GET ${CASE_PATH}`]: 'network-error',
    });
    renderApp('/case', {
      ...signedInSession(),
      teams: [caseTeam],
      selectedTeam: caseTeam,
      complaintSet,
      case: localCase(),
      caseActive: true,
    });
    const socket = await gatewaySocket({ 'case:case-1': 4 });
    await waitFor(() => expect(api.requests.filter((r) => r.url.pathname === CASE_PATH)).toHaveLength(1));
    expect(socket.subscribes().filter((frame) => frame.channel === 'case:case-1')).toHaveLength(1);
    const before = api.requests.length;

    act(() =>
      socket.frame({
        type: 'message',
        channel: 'case:case-1',
        seq: 5,
        event: {
          type: 'case.updated',
          data: caseUpdated(5, {
            type: 'acknowledged',
            payload: { hospitalId: 'rrmc', byName: 'Dana Cho', hospitalName: 'Riverside Regional' },
          }),
        },
      }),
    );
    expect(await screen.findByTestId('ed-acknowledgement')).toHaveTextContent(
      /Seen by Riverside Regional ED \d\d:\d\d/,
    );

    // The destination changes to another hospital: the line goes, still without a request.
    act(() =>
      socket.frame({
        type: 'message',
        channel: 'case:case-1',
        seq: 6,
        event: {
          type: 'case.updated',
          data: caseUpdated(6, {
            type: 'hospital',
            payload: { destinationHospital: 'stmary', previous: 'rrmc', nonTwiage: false },
          }),
        },
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('ed-acknowledgement')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.requests.slice(before).map((r) => `${r.method} ${r.url.pathname}`)).toEqual([]);
  });
});
