import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchMessages, transferMessages, type Case, type CaseTransfer } from '@inbound/contract';
import { useAlerts } from '../../lib/alerts';
import { caseOutbox } from '../../lib/caseOutbox';
import { realtime } from '../../lib/realtime';
import { resetSessionForTests, useSession } from '../../lib/session';
import { FakeWebSocket } from '@inbound/client/testing';
import { mockFetch, type MockHandler } from '../../test/fetchMock';
import { localCase, signedInSession } from '../../test/fixtures';
import {
  acceptRequest,
  cancelReceive,
  connectivity,
  openTransfer,
  receiveDispatchedCase,
  requestTransfer,
  resetTransferForTests,
  useTransfer,
} from './transferController';

const T = '/v4/case-transfers/tr-1';

function transfer(overrides: Partial<CaseTransfer> = {}): CaseTransfer {
  const now = new Date().toISOString();
  return {
    _id: 'tr-1',
    caseId: 'case-1',
    caseTransferCode: '482913',
    status: 'open',
    pubnubChannel: 'transfer:tr-1',
    request: null,
    createdBy: 'u-medic1',
    messageForSender: null,
    messageForReceiver: null,
    emsAgency: 'riverside',
    createdAt: now,
    updatedAt: now,
    expiresAt: now,
    ...overrides,
  };
}

const requestOf = (status: NonNullable<CaseTransfer['request']>['status']) => ({
  status,
  requestedBy: 'u-medic2',
  emsAgencyId: 'lakeside',
  truckId: 't-amb5',
});

const serverCase: Case = {
  id: 'case-1',
  caseNumber: 'RV-7K2',
  channelId: 'case:case-1',
  ownedBy: 'u-medic2',
  type: 'emsED',
  createdAt: new Date().toISOString(),
  closedAt: null,
  arrivedAt: null,
  destinationHospital: { id: 'rrmc' },
  emsAgency: 'lakeside',
  truck: 't-amb5',
  complaint: 'stroke',
  complaintSet: 'Default',
  tags: [],
  age: 67,
  agePeriod: 3,
  gender: 'F',
  uploads: [],
  monitorIntegration: null,
  patientInfo: [{ key: 'firstName', value: 'Ada' }],
  mediaCounts: { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 },
  lastLocation: null,
};

/** The transfer as the server holds it now; each GET answers it. */
let current: CaseTransfer;

function server(extra: Record<string, MockHandler> = {}) {
  return mockFetch({
    [`GET ${T}`]: () => ({ body: current }),
    ...extra,
  });
}

async function liveSocket(): Promise<FakeWebSocket> {
  const socket = await vi.waitFor(() => {
    const last = FakeWebSocket.last();
    if (!last) throw new Error('no socket');
    return last;
  });
  socket.open();
  return socket;
}

const alerts = () => useAlerts.getState().queue.map((alert) => alert.message);

beforeEach(async () => {
  await caseOutbox.clear();
  realtime.close();
  FakeWebSocket.instances = [];
  useAlerts.setState({ queue: [] });
  vi.spyOn(connectivity, 'probe').mockResolvedValue(true);
});

afterEach(() => {
  resetTransferForTests();
  realtime.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('case transfer, sending crew', () => {
  it('opens with a code, answers a request, acknowledges when received, then clears the case', async () => {
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    current = transfer();
    const api = server({
      'POST /v4/case-transfers': () => ({ status: 201, body: current }),
      [`PATCH ${T}/accept-request`]: () => {
        current = transfer({ request: requestOf('accepted') });
        return { body: current };
      },
      [`PATCH ${T}/acknowledge`]: () => {
        current = transfer({ status: 'done', request: requestOf('done') });
        return { body: current };
      },
    });
    await openTransfer();
    expect(api.calls('POST /v4/case-transfers')[0]?.body).toEqual({ caseId: 'case-1' });
    expect(useTransfer.getState()).toMatchObject({
      role: 'sender',
      open: true,
      transfer: { caseTransferCode: '482913' },
    });

    const socket = await liveSocket();
    expect(socket.subscribedTo('transfer:tr-1')).toBe(true);
    current = transfer({ request: requestOf('open') });
    socket.message('transfer:tr-1', 1, 'CASE_TRANSFER_UPDATED', { id: 'tr-1' });
    await vi.waitFor(() => expect(useTransfer.getState().transfer?.request?.status).toBe('open'));

    await acceptRequest();
    expect(useTransfer.getState().transfer?.request?.status).toBe('accepted');

    vi.useFakeTimers();
    current = transfer({ request: requestOf('received') });
    socket.message('transfer:tr-1', 2, 'CASE_TRANSFER_UPDATED', { id: 'tr-1' });
    await vi.waitFor(() => expect(alerts()).toEqual([transferMessages.done]));
    expect(api.calls(`PATCH ${T}/acknowledge`)).toHaveLength(1);
    expect(useSession.getState()).toMatchObject({
      case: null,
      caseActive: false,
      caseTransfer: null,
      caseFeedbackPending: null,
      closedCases: [{ id: 'case-1', caseNumber: 'RV-7K2' }],
    });
    expect(useTransfer.getState().role).toBeNull();
    // The channel is left only after the 2 s delay.
    expect(socket.sent.some((frame) => frame.type === 'unsubscribe')).toBe(false);
    vi.advanceTimersByTime(2_000);
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', channel: 'transfer:tr-1' });
  });

  it('offline: says so and opens nothing; a placeholder case is not available', async () => {
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    const api = server();
    vi.mocked(connectivity.probe).mockResolvedValue(false);
    await openTransfer();
    expect(alerts()).toEqual([transferMessages.offline]);
    resetSessionForTests({ ...signedInSession(), case: localCase({ id: 'placeholder-1' }), caseActive: true });
    await openTransfer();
    expect(alerts()).toEqual([transferMessages.offline, transferMessages.notAvailable]);
    expect(api.requests).toHaveLength(0);
  });

  it('offline for 60 s while waiting cancels the transfer with the timeout text; back online before that does not', async () => {
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    current = transfer();
    const api = server({
      'POST /v4/case-transfers': () => ({ status: 201, body: current }),
      [`PATCH ${T}/cancel`]: () => ({ body: transfer({ status: 'cancelled' }) }),
    });
    vi.useFakeTimers();
    await openTransfer();
    const probe = vi.mocked(connectivity.probe);

    probe.mockResolvedValue(false);
    await vi.advanceTimersByTimeAsync(5_000); // the 5 s poll finds it offline: the 60 s timer starts
    expect(useTransfer.getState().offlineSince).not.toBeNull();
    await vi.advanceTimersByTimeAsync(30_000);
    probe.mockResolvedValue(true);
    await vi.advanceTimersByTimeAsync(5_000); // back: timer stopped, state refreshed
    expect(useTransfer.getState().offlineSince).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(alerts()).toEqual([]);

    probe.mockResolvedValue(false);
    await vi.advanceTimersByTimeAsync(5_000);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(alerts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(alerts()).toEqual([transferMessages.timedOut]);
    expect(api.calls(`PATCH ${T}/cancel`)[0]?.body).toEqual({ reason: 'timeout' });
    expect(useTransfer.getState().transfer).toBeNull();
  });
});

describe('case transfer, receiving crew', () => {
  it('requests with the code, loads the case when accepted, and takes it over when done', async () => {
    resetSessionForTests({ ...signedInSession() });
    current = transfer({ request: requestOf('open') });
    const api = server({
      'POST /v4/case-transfers/482913/request': () => ({ status: 201, body: current }),
      'GET /v4/twiageCases/case-1': { body: serverCase },
      [`PATCH ${T}/received`]: () => {
        current = transfer({ request: requestOf('received') });
        return { body: current };
      },
    });
    await requestTransfer(' 482913 ');
    const session = useSession.getState();
    expect(api.calls('POST /v4/case-transfers/482913/request')[0]?.body).toEqual({
      emsAgencyId: session.selectedTeam?.id,
      truckId: session.selectedTruck?.id,
    });
    const socket = await liveSocket();
    current = transfer({ request: requestOf('accepted') });
    socket.message('transfer:tr-1', 1, 'CASE_TRANSFER_UPDATED', null);
    await vi.waitFor(() => expect(api.calls(`PATCH ${T}/received`)).toHaveLength(1));

    current = transfer({ status: 'done', request: requestOf('done') });
    socket.message('transfer:tr-1', 2, 'CASE_TRANSFER_UPDATED', null);
    await vi.waitFor(() => expect(useSession.getState().caseActive).toBe(true));
    expect(useSession.getState().case).toMatchObject({
      id: 'case-1',
      caseNumber: 'RV-7K2',
      complaint: 'stroke',
      age: 67,
      gender: 'F',
      destinationHospital: { id: 'rrmc' },
      patientInfo: [{ key: 'firstName', value: 'Ada' }],
    });
    expect(useTransfer.getState().role).toBeNull();
  });

  it("an update that arrives while the last one is still being handled is not lost (the sender's 'done' during 'received')", async () => {
    resetSessionForTests({ ...signedInSession() });
    current = transfer({ request: requestOf('open') });
    let socket: FakeWebSocket | null = null;
    const api = server({
      'POST /v4/case-transfers/482913/request': () => ({ status: 201, body: current }),
      'GET /v4/twiageCases/case-1': { body: serverCase },
      [`PATCH ${T}/received`]: () => {
        // The sender acknowledges at once, and its update reaches this device before this answer does:
        // the refresh that reacted to 'accepted' is still out.
        current = transfer({ status: 'done', request: requestOf('done') });
        socket?.message('transfer:tr-1', 2, 'CASE_TRANSFER_UPDATED', null);
        return { body: transfer({ request: requestOf('received') }) };
      },
    });
    await requestTransfer('482913');
    socket = await liveSocket();
    current = transfer({ request: requestOf('accepted') });
    socket.message('transfer:tr-1', 1, 'CASE_TRANSFER_UPDATED', null);
    await vi.waitFor(() => expect(useSession.getState().caseActive).toBe(true));
    expect(api.calls(`PATCH ${T}/received`)).toHaveLength(1);
    expect(useSession.getState().case).toMatchObject({ id: 'case-1', caseNumber: 'RV-7K2' });
    expect(useTransfer.getState().role).toBeNull();
  });

  it('declined, cancelled and expired each end with their text; Cancel withdraws an open request', async () => {
    resetSessionForTests({ ...signedInSession() });
    const api = server({
      'POST /v4/case-transfers/482913/request': () => ({ status: 201, body: current }),
      [`PATCH ${T}/cancel-request`]: () => ({ body: transfer({ request: requestOf('cancelled') }) }),
    });
    const cases: Array<[Partial<CaseTransfer>, string]> = [
      [{ request: requestOf('denied') }, transferMessages.requestDeclined],
      [{ status: 'cancelled', request: requestOf('open') }, transferMessages.cancelled],
      [{ status: 'expired', request: requestOf('open') }, transferMessages.hasExpired],
    ];
    for (const [state, text] of cases) {
      useAlerts.setState({ queue: [] });
      current = transfer({ request: requestOf('open') });
      await requestTransfer('482913');
      const socket = FakeWebSocket.last()!;
      if (socket.readyState !== 1) socket.open();
      current = transfer(state);
      socket.message('transfer:tr-1', (socket.sent.length + 1) * 10, 'CASE_TRANSFER_UPDATED', null);
      await vi.waitFor(() => expect(alerts()).toEqual([text]));
      expect(useTransfer.getState().transfer).toBeNull();
      realtime.close();
    }
    current = transfer({ request: requestOf('open') });
    await requestTransfer('482913');
    await cancelReceive();
    expect(api.calls(`PATCH ${T}/cancel-request`)).toHaveLength(1);
    expect(useTransfer.getState().open).toBe(false);
  });

  it("shows the server's refusal as-is, and the offline text without network", async () => {
    resetSessionForTests({ ...signedInSession() });
    server({
      'POST /v4/case-transfers/999999/request': { status: 404, body: { message: transferMessages.notAvailable } },
    });
    await requestTransfer('999999');
    expect(alerts()).toEqual([transferMessages.notAvailable]);
    vi.mocked(connectivity.probe).mockResolvedValue(false);
    await requestTransfer('999999');
    expect(alerts()).toEqual([transferMessages.notAvailable, transferMessages.offline]);
  });
});

describe('loading a dispatched case from the Message Center', () => {
  const claimPath = 'POST /v4/dispatched-cases/QW-5238/claim';
  const dispatchedCase: Case = { ...serverCase, caseNumber: 'QW-5238', type: 'hospitalED', ownedBy: 'u-medic1' };

  it('claims it with the selected team and truck and opens it as the case', async () => {
    resetSessionForTests({ ...signedInSession() });
    const api = server({ [claimPath]: { body: dispatchedCase } });
    await receiveDispatchedCase('QW-5238');
    const session = useSession.getState();
    expect(api.calls(claimPath)[0]?.body).toEqual({
      emsAgencyId: session.selectedTeam?.id,
      truckId: session.selectedTruck?.id,
    });
    expect(session.caseActive).toBe(true);
    expect(session.case).toMatchObject({ caseNumber: 'QW-5238', type: 'hospitalED', complaint: 'stroke' });
    expect(alerts()).toEqual([]);
    expect(useTransfer.getState().inFlight).toBe(false);
  });

  it("shows §8's Message Center warning for whatever the server refuses, and the offline text without network", async () => {
    resetSessionForTests({ ...signedInSession() });
    server({ [claimPath]: { status: 404, body: { message: transferMessages.notAvailable } } });
    await receiveDispatchedCase('QW-5238');
    expect(alerts()).toEqual(['Warning: Case QW-5238 not available for transfer.']);
    expect(useSession.getState().caseActive).toBe(false);
    vi.mocked(connectivity.probe).mockResolvedValue(false);
    await receiveDispatchedCase('QW-5238');
    expect(alerts()).toEqual(['Warning: Case QW-5238 not available for transfer.', transferMessages.offline]);
  });

  it('does not replace a case the crew has open', async () => {
    resetSessionForTests({ ...signedInSession(), case: localCase(), caseActive: true });
    const api = server({ [claimPath]: { body: dispatchedCase } });
    await receiveDispatchedCase('QW-5238');
    expect(api.calls(claimPath)).toHaveLength(0);
    expect(alerts()).toEqual([dispatchMessages.closeCaseFirst]);
    expect(useSession.getState().case?.caseNumber).not.toBe('QW-5238');
  });
});
